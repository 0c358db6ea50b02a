import { z } from '../../src/index.ts';

/** Parameters of the town square, with defaults and descriptions (shown by `grapevine worlds`). */
export const townParams = z.object({
  personas: z.string().default('').describe('personas JSON file (default: the shipped agents/personas.json)'),
  agents: z
    .number()
    .int()
    .min(5)
    .max(2000)
    .default(8)
    .describe(
      'number of agents (5 to 2000; past the personas file, personas repeat with a suffix: II, III, IV, 5...)',
    ),
  llmAgents: z
    .number()
    .int()
    .min(0)
    .max(2000)
    .optional()
    .describe('how many agents are LLM-driven (default: all); the rest follow rumour-world rules'),
  network: z
    .enum(['watts-strogatz', 'ring-lattice', 'complete'])
    .default('watts-strogatz')
    .describe('who may message whom directly'),
  k: z.number().int().min(2).default(4).describe('neighbours per agent (watts-strogatz, ring-lattice)'),
  beta: z.number().min(0).max(1).default(0.2).describe('watts-strogatz rewiring probability'),
  factKnowers: z.number().int().min(0).default(2).describe('agents who know the true fact at the start'),
  rumorPlanter: z.boolean().default(true).describe('one agent starts with the false rumour'),
  secretHolder: z.boolean().default(true).describe('agent 0 holds a secret'),
  turns: z
    .enum(['simultaneous', 'round-robin', 'random-order'])
    .default('simultaneous')
    .describe('turn policy'),
  temperature: z.number().min(0).max(2).default(0.7).describe('LLM sampling temperature'),
  maxTokens: z.number().int().min(16).default(160).describe('LLM reply token limit'),
  memoryTokens: z
    .number()
    .int()
    .min(0)
    .default(400)
    .describe('token budget for recalled memories in each prompt'),
  ruleModel: z
    .enum(['daley-kendall', 'maki-thompson'])
    .default('maki-thompson')
    .describe('spreading rule of rule agents'),
  ruleTellings: z
    .number()
    .int()
    .min(1)
    .default(5)
    .describe('a rule agent stops after this many tellings of an item'),
  networkView: z
    .enum(['current', 'initial'])
    .default('current')
    .describe(
      'network that direct messages and contact lists follow: current (with edges an intervention added or removed) or initial (as built; version 1.0.0)',
    ),
});

/** Resolved town-square parameters. */
export type TownParams = z.infer<typeof townParams>;
