import { blockModelParams, networkKinds, z } from '../../src/index.ts';

/** Spreading models of the rumour world. */
export const SPREADING_MODELS = [
  'daley-kendall',
  'maki-thompson',
  'independent-cascade',
  'complex-contagion',
  'watts-threshold',
] as const;

/** Parameters of the rumour world, with defaults and descriptions (shown by `grapevine worlds`). */
export const rumorParams = z.object({
  n: z.number().int().min(2).default(10_000).describe('number of agents'),
  network: z
    .enum(networkKinds)
    .default('watts-strogatz')
    .describe('network generator (complete = well-mixed, never materialised)'),
  k: z
    .number()
    .min(0)
    .default(10)
    .describe('mean degree for watts-strogatz, ring-lattice (integers) and erdos-renyi'),
  beta: z.number().min(0).max(1).default(0.1).describe('watts-strogatz rewiring probability'),
  m: z.number().int().min(1).default(5).describe('barabasi-albert edges per new node'),
  ...blockModelParams,
  networkFile: z
    .string()
    .default('')
    .describe("edge-list CSV path when network=csv (n is then the file's node count)"),
  model: z.enum(SPREADING_MODELS).default('daley-kendall').describe('spreading model'),
  contact: z
    .enum(['instant', 'delayed'])
    .default('instant')
    .describe(
      'pairwise models: instant = the classic model (each telling is an encounter answered at once); delayed = 1-tick message passing (the teller learns one round trip later)',
    ),
  p: z.number().min(0).max(1).default(0.1).describe('independent-cascade: adoption probability per telling'),
  theta: z.number().int().min(1).default(2).describe('complex-contagion: distinct tellers needed to adopt'),
  phi: z
    .number()
    .min(0)
    .max(1)
    .default(0.18)
    .describe('watts-threshold: adopt when the adopting fraction of neighbours reaches this threshold'),
  phiDistribution: z
    .enum(['fixed', 'normal', 'uniform'])
    .default('fixed')
    .describe(
      'watts-threshold: thresholds per agent: all phi, normal(phi, phiSpread), or uniform phi ± phiSpread (clipped to [0, 1])',
    ),
  phiSpread: z
    .number()
    .min(0)
    .max(1)
    .default(0)
    .describe('watts-threshold: sd (normal) or half-width (uniform) of thresholds'),
  insiders: z.number().int().min(0).default(5).describe('agents who know the true fact at tick 0'),
  spreaders: z.number().int().min(0).default(5).describe('agents who plant the false rumour at tick 0'),
  skeptics: z.number().min(0).max(1).default(0).describe('fraction of agents who doubt rumours'),
  skepticism: z
    .number()
    .min(0)
    .max(1)
    .default(0.8)
    .describe('probability that a skeptic rejects the rumour on hearing it'),
  debunkers: z
    .number()
    .min(0)
    .max(1)
    .default(0)
    .describe('fraction of agents who answer the rumour by spreading the fact'),
  factBlocksRumor: z.boolean().default(true).describe('agents who know the fact reject the rumour'),
  turns: z
    .enum(['simultaneous', 'random-order', 'async', 'wake-on-message'])
    .default('simultaneous')
    .describe('turn policy (async = continuous time)'),
  activation: z
    .enum(['by-state', 'uniform'])
    .default('by-state')
    .describe(
      'async: by-state = only spreaders (and agents with mail) wake, at rate 1; uniform = every agent wakes at rate 1 (logs of versions before 1.2.0; the same law, more steps)',
    ),
  executor: z
    .enum(['columnar', 'xstate'])
    .default('columnar')
    .describe('agent executor (same results, xstate is slower)'),
});

/** Resolved rumour-world parameters. */
export type RumorParams = z.infer<typeof rumorParams>;
