import { z } from 'zod';
import { MODES } from './views.ts';

/**
 * The protocols a Sotopia episode can follow. `zhou2024` follows the information, rules
 * and reply contract of the code Zhou et al. 2024 ran on (sotopia-lab/sotopia, tag
 * `agent_vs_storyteller_v1`; see docs/SOTOPIA.md), in the words of a template pack;
 * `grapevine-v0` is grapevine's first protocol (world version 1.x), kept so that its logs
 * still replay.
 */
export const PROTOCOLS = ['zhou2024', 'grapevine-v0'] as const;

/** A protocol. */
export type Protocol = (typeof PROTOCOLS)[number];

/**
 * How replies are read: `sotopia` as Sotopia's code reads them (JSON replies for turns and
 * the judge, free-text `Turn #n` scripts for the script writer and the playwright, no JSON
 * mode on the request; an unreadable reply gets one repair call, then counts as failed);
 * `reask` is grapevine's way (JSON for every mode with the schema sent as structured
 * output, an unreadable reply re-asked twice with the problem shown; world 2.0.x).
 */
export const PARSINGS = ['sotopia', 'reask'] as const;

/** A way of reading replies. */
export type Parsing = (typeof PARSINGS)[number];

/**
 * The reply contract of a zhou2024 run: `sotopia` is Sotopia's (`action_type` and
 * `argument`; the judge's `agent_1_evaluation` and `agent_2_evaluation` holding a
 * `[reasoning, score]` pair per dimension; texts rendered as Sotopia's code renders them);
 * `grapevine` the world's own up to version 2.1 (`action`, `argument`; `agent0`, `agent1`
 * holding `{reasoning, score}`), with which logs of those versions replay.
 */
export const CONTRACTS = ['sotopia', 'grapevine'] as const;

/** A reply contract. */
export type Contract = (typeof CONTRACTS)[number];

/** The judge's rubric: Sotopia's per-dimension steps (`basic`), or the same with scoring bands (`plus`). */
export const RUBRICS = ['basic', 'plus'] as const;

/** Parameters of the Sotopia world (shown by `grapevine worlds`). */
export const sotopiaParams = z.object({
  scenario: z
    .string()
    .default('')
    .describe('scenario: a codename or an env_id (default: the first scenario of the data)'),
  pair: z.number().int().min(0).default(0).describe("which of the scenario's character pairs (0..4)"),
  mode: z
    .enum(MODES)
    .default('agents')
    .describe(
      "agents | mindreaders (each sees the other's goal and secret) | script (one omniscient call) | playwright (omniscient, turn by turn)",
    ),
  protocol: z
    .enum(PROTOCOLS)
    .default('zhou2024')
    .describe(
      "zhou2024 (the information, rules and reply contract of Zhou et al. 2024's code; the words of the template pack) | grapevine-v0 (world 1.x)",
    ),
  contract: z
    .enum(CONTRACTS)
    .default('sotopia')
    .describe(
      "zhou2024: the reply contract: sotopia (Sotopia's fields action_type, argument, agent_1_evaluation/agent_2_evaluation [reasoning, score]) | grapevine (action, argument, agent0/agent1 {reasoning, score}; world 2.0-2.1)",
    ),
  maxTurns: z
    .number()
    .int()
    .min(1)
    .max(500)
    .default(20)
    .describe('zhou2024: ends when the turn number exceeds it; grapevine-v0: ends after this many turns'),
  maxIdle: z
    .number()
    .int()
    .min(0)
    .default(2)
    .describe(
      'ends when the trailing run of "none" actions exceeds it (zhou2024: the waiting seat\'s included)',
    ),
  data: z.string().default('').describe('Sotopia data directory (default: the shipped copy)'),
  judge: z.boolean().default(true).describe('score the episode with the Sotopia-EVAL judge'),
  judgeModel: z.string().default('').describe("the judge's model (default: the agents' model)"),
  temperature: z
    .number()
    .min(0)
    .max(2)
    .default(1)
    .describe("the characters' sampling temperature (zhou2024: 1.0; grapevine-v0: also the writer's)"),
  writerTemperature: z
    .number()
    .min(0)
    .max(2)
    .default(0.7)
    .describe("zhou2024: the script writer's and the playwright's temperature (0.7)"),
  rubric: z
    .enum(RUBRICS)
    .default('basic')
    .describe("zhou2024 judge: Sotopia's basic rubric, or plus (scoring bands)"),
  regenerate: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(3)
    .describe('zhou2024: attempts at a script or a judgement before the episode counts as missing'),
  parsing: z
    .enum(PARSINGS)
    .default('sotopia')
    .describe(
      "zhou2024: sotopia (Sotopia's reply formats and one repair call) | reask (JSON everywhere, re-asked twice; world 2.0)",
    ),
  repairModel: z
    .string()
    .default('')
    .describe(
      "parsing=sotopia: the model of the repair call ('' = the model of the call repaired; Sotopia used gpt-3.5-turbo)",
    ),
  seatModels: z
    .array(z.string())
    .default([])
    .describe('models of seats 0 and 1 when they differ (default: the run model for both)'),
  templates: z
    .string()
    .default('')
    .describe(
      "zhou2024: a template pack directory; its files replace the shipped pack's (the project's own words; `grapevine sotopia templates` makes a pack of Sotopia's own words from a Sotopia checkout)",
    ),
});

/** Resolved Sotopia parameters. */
export type SotopiaParams = z.infer<typeof sotopiaParams>;

/**
 * Parameters of a log written by an earlier version of the world, for this version: world
 * 1.x logs (no `protocol`) replay with `grapevine-v0`; 1.x and 2.0.x logs (no `parsing`)
 * with `parsing: reask`, the only way they read replies; 1.x to 2.1.x logs (no `contract`)
 * with the `grapevine` reply contract.
 */
export function migrateSotopiaParams(
  params: Record<string, unknown>,
  fromVersion: string,
): Record<string, unknown> {
  let out = params;
  if (/^1\./.test(fromVersion) && out.protocol === undefined) out = { ...out, protocol: 'grapevine-v0' };
  if (/^(1|2\.0)\./.test(fromVersion) && out.parsing === undefined) out = { ...out, parsing: 'reask' };
  if (/^(1|2\.[01])\./.test(fromVersion) && out.contract === undefined)
    out = { ...out, contract: 'grapevine' };
  return out;
}
