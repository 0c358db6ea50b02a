import { blockModelParams, z } from '../../src/index.ts';

/** Parameters of the epidemic world (rates per unit time; one tick is one time unit). */
export const epidemicParams = z.object({
  model: z
    .enum(['sir', 'sis'])
    .default('sir')
    .describe('SIR (recovered are immune) or SIS (recovered are susceptible again)'),
  n: z.number().int().min(2).default(10_000).describe('number of agents'),
  network: z
    .enum([
      'complete',
      'erdos-renyi',
      'watts-strogatz',
      'barabasi-albert',
      'stochastic-block-model',
      'ring-lattice',
      'csv',
    ])
    .default('complete')
    .describe('contact network (complete = well-mixed; csv = networkFile)'),
  k: z
    .number()
    .min(0)
    .default(10)
    .describe('mean degree (erdos-renyi; integer for watts-strogatz, ring-lattice)'),
  m: z.number().int().min(1).default(5).describe('barabasi-albert edges per new node'),
  ...blockModelParams,
  // no default: a run without a file records no networkFile, as before it existed
  networkFile: z
    .string()
    .optional()
    .describe("edge-list CSV path when network=csv (n is then the file's node count)"),
  transmission: z
    .enum(['per-contact', 'per-edge'])
    .default('per-contact')
    .describe(
      'per-contact: an infected agent contacts a random neighbour at rate contactRate, infecting with probability beta; per-edge: every S–I edge transmits at rate tau (network epidemiology; needs turns=async)',
    ),
  contactRate: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe('per-contact: contacts an infected agent makes per unit time'),
  beta: z
    .number()
    .min(0)
    .max(1)
    .default(0.6)
    .describe('per-contact: transmission probability per contact with a susceptible agent'),
  tau: z.number().min(0).default(0.1).describe('per-edge: transmission rate of each S–I edge per unit time'),
  gamma: z.number().min(0).default(0.2).describe('recovery rate per unit time'),
  initial: z.number().int().min(0).default(1).describe('agents infected at time 0'),
  turns: z
    .enum(['async', 'simultaneous', 'random-order'])
    .default('async')
    .describe('turn policy (async = continuous time)'),
  activation: z
    .enum(['by-state', 'uniform'])
    .default('by-state')
    .describe(
      'async: by-state = only infected agents wake, at their total event rate; uniform = every agent wakes at rate 1 (logs of version 1.0.0; the same law, more steps)',
    ),
  executor: z.enum(['columnar', 'xstate']).default('columnar').describe('agent executor'),
});

/** Resolved epidemic parameters. */
export type EpidemicParams = z.infer<typeof epidemicParams>;
