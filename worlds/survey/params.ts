import { z } from '../../src/index.ts';

/** Parameters of the survey world, with defaults and descriptions (shown by `grapevine worlds`). */
export const surveyParams = z.object({
  items: z
    .string()
    .default('')
    .describe('items file, .csv/.json/.yaml (default: the shipped worlds/survey/data/items.yaml)'),
  personas: z
    .string()
    .default('')
    .describe('personas file, .csv/.json/.yaml (default: the shipped worlds/survey/data/marginals.yaml)'),
  personaMode: z
    .enum(['rows', 'joint', 'marginals'])
    .default('marginals')
    .describe('personas file holds one persona per row, a weighted joint table, or attribute marginals'),
  agents: z.number().int().min(1).max(100_000).default(12).describe('number of respondents'),
  elicitation: z
    .enum(['sample', 'distribution', 'logprobs'])
    .default('sample')
    .describe(
      'one answer, a probability per option, or token log-probabilities (needs an endpoint that returns them)',
    ),
  shuffle: z
    .boolean()
    .default(true)
    .describe('shuffle the option order per respondent and item (seeded, recorded)'),
  discussion: z
    .boolean()
    .default(false)
    .describe('after answering, respondents see their network neighbours’ answers and answer again'),
  pushback: z
    .enum(['none', 'disagree', 'opposite'])
    .default('none')
    .describe(
      'sycophancy probe: a scripted interlocutor disagrees, or asserts another answer, and the respondent answers again',
    ),
  network: z
    .enum(['watts-strogatz', 'ring-lattice', 'complete'])
    .default('watts-strogatz')
    .describe('who discusses with whom'),
  k: z.number().int().min(2).default(4).describe('neighbours per respondent (watts-strogatz, ring-lattice)'),
  beta: z.number().min(0).max(1).default(0.2).describe('watts-strogatz rewiring probability'),
  temperature: z.number().min(0).max(2).default(1).describe('LLM sampling temperature'),
  maxTokens: z.number().int().min(16).default(200).describe('LLM reply token limit'),
});

/** Resolved survey parameters. */
export type SurveyParams = z.infer<typeof surveyParams>;
