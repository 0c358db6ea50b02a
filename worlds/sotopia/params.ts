import { z } from 'zod';
import { MODES } from './views.ts';

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
  maxTurns: z.number().int().min(1).max(500).default(20).describe('the episode ends after this many turns'),
  maxIdle: z
    .number()
    .int()
    .min(0)
    .default(2)
    .describe('the episode ends after more than this many consecutive "none" turns'),
  data: z.string().default('').describe('Sotopia data directory (default: the shipped copy)'),
  judge: z.boolean().default(true).describe('score the episode with the Sotopia-EVAL judge'),
  judgeModel: z.string().default('').describe("the judge's model (default: the agents' model)"),
  temperature: z
    .number()
    .min(0)
    .max(2)
    .default(0.7)
    .describe('sampling temperature of the characters and the writer'),
});

/** Resolved Sotopia parameters. */
export type SotopiaParams = z.infer<typeof sotopiaParams>;
