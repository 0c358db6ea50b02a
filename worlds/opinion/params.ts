import { blockModelParams, networkKinds, z } from '../../src/index.ts';

/** Opinion-dynamics models of the opinion world. */
export const OPINION_MODELS = [
  'degroot',
  'friedkin-johnsen',
  'hegselmann-krause',
  'voter',
  'deffuant-weisbuch',
] as const;
/** The models updated by pairwise encounters under async activation (not synchronous messages). */
export const ENCOUNTER_MODELS: readonly OpinionModel[] = ['voter', 'deffuant-weisbuch'];
/** One of {@link OPINION_MODELS}. */
export type OpinionModel = (typeof OPINION_MODELS)[number];

/** Parameters of the opinion world, with defaults and descriptions (shown by `grapevine worlds`). */
export const opinionParams = z.object({
  model: z.enum(OPINION_MODELS).default('degroot').describe('opinion-dynamics model'),
  n: z
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe('number of agents (ignored when a file gives the population)'),
  network: z
    .enum(networkKinds)
    .default('watts-strogatz')
    .describe('who hears whom (complete = well-mixed); with weights=file the weights decide instead'),
  k: z
    .number()
    .int()
    .min(0)
    .default(10)
    .describe('mean degree for watts-strogatz, ring-lattice and erdos-renyi'),
  beta: z.number().min(0).max(1).default(0.1).describe('watts-strogatz rewiring probability'),
  m: z.number().int().min(1).default(5).describe('barabasi-albert edges per new node'),
  ...blockModelParams,
  networkFile: z.string().default('').describe('edge-list CSV path when network=csv'),
  weights: z
    .enum(['network', 'file'])
    .default('network')
    .describe(
      'trust matrix W of degroot and friedkin-johnsen: network = equal weights 1/(degree+1) on self and each neighbour; file = weightsFile',
    ),
  weightsFile: z
    .string()
    .default('')
    .describe('CSV of "i,j,w" lines (agent i puts weight w on agent j); every row must sum to 1'),
  initial: z
    .enum(['uniform', 'file'])
    .default('uniform')
    .describe('initial opinions: uniform on [0,1] (seeded) or opinionsFile'),
  opinionsFile: z.string().default('').describe('CSV of "i,x" lines: the initial opinion of every agent'),
  susceptibility: z
    .enum(['fixed', 'uniform', 'file'])
    .default('fixed')
    .describe(
      'friedkin-johnsen susceptibility λ_i: fixed (lambda), uniform on [lambdaMin,lambdaMax] (seeded), or susceptibilityFile',
    ),
  lambda: z
    .number()
    .min(0)
    .max(1)
    .default(0.8)
    .describe('friedkin-johnsen: λ when susceptibility=fixed (stubbornness is 1−λ)'),
  lambdaMin: z
    .number()
    .min(0)
    .max(1)
    .default(0)
    .describe('friedkin-johnsen: lower end of λ when susceptibility=uniform'),
  lambdaMax: z
    .number()
    .min(0)
    .max(1)
    .default(1)
    .describe('friedkin-johnsen: upper end of λ when susceptibility=uniform'),
  susceptibilityFile: z.string().default('').describe('CSV of "i,lambda" lines when susceptibility=file'),
  epsilon: z
    .number()
    .min(0)
    .default(0.2)
    .describe(
      'confidence bound ε: hegselmann-krause hears opinions within ε (inclusive); deffuant-weisbuch pairs move only when |x_i − x_j| < ε (strict)',
    ),
  mu: z
    .number()
    .min(0)
    .max(0.5)
    .default(0.5)
    .describe('deffuant-weisbuch convergence parameter μ: each side moves μ times the difference'),
  share: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe(
      'voter with initial=uniform: round(share·n) agents, placed at random, start with opinion 1, the rest 0',
    ),
  tolerance: z
    .number()
    .min(0)
    .default(1e-9)
    .describe('stop when no opinion moved more than this in a tick (max |Δx| < tolerance)'),
  clusterGap: z
    .number()
    .positive()
    .default(1e-3)
    .describe(
      'cluster rule: sorted opinions split into clusters wherever two neighbours differ by more than this',
    ),
  reportOpinions: z
    .boolean()
    .default(false)
    .describe('put every agent’s initial and final opinion in the summary (small runs, validation)'),
  activation: z
    .enum(['by-state', 'uniform'])
    .default('by-state')
    .describe(
      'voter and deffuant-weisbuch: by-state = the event-driven schedule (every agent at rate 1, or the voter by voterRule); uniform = the rate-1 policy of version 1.0.0 logs (the voter then needs voterRule=rate-1)',
    ),
  voterRule: z
    .enum(['discordance', 'rate-1'])
    .default('discordance')
    .describe(
      'voter wakes: discordance = an agent wakes at the share of its neighbours that disagree and copies one of them (the same law, no idle wakes; counted opinions); rate-1 = every agent wakes at rate 1 and copies a random neighbour (version 1.1.0 runs). network=complete wakes at rate 1 either way',
    ),
  executor: z
    .enum(['columnar', 'xstate'])
    .default('columnar')
    .describe('agent executor (same results, xstate is slower)'),
});

/** Resolved opinion-world parameters. */
export type OpinionParams = z.infer<typeof opinionParams>;
