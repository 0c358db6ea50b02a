import { z } from 'zod';
import type { BarabasiAlbertParams } from './barabasi-albert.ts';
import type { CompleteParams } from './complete.ts';
import type { ErdosRenyiGnmParams, ErdosRenyiGnpParams } from './erdos-renyi.ts';
import type { RingLatticeParams } from './ring-lattice.ts';
import type { StochasticBlockModelParams } from './stochastic-block-model.ts';
import type { WattsStrogatzParams } from './watts-strogatz.ts';

/**
 * What network a world runs on: a generator and its parameters, or a file to load. The
 * generators check their parameters again, with messages that say how to fix them.
 */
export type NetworkSpec =
  | ({ kind: 'ring-lattice' } & RingLatticeParams)
  | ({ kind: 'watts-strogatz' } & WattsStrogatzParams)
  | ({ kind: 'erdos-renyi' } & ErdosRenyiGnpParams)
  | ({ kind: 'erdos-renyi' } & ErdosRenyiGnmParams)
  | ({ kind: 'barabasi-albert' } & BarabasiAlbertParams)
  | ({ kind: 'stochastic-block-model' } & StochasticBlockModelParams)
  | ({ kind: 'complete' } & CompleteParams)
  | { kind: 'csv'; path: string }
  | { kind: 'graphology-json'; path: string };

/** Every `kind` a {@link NetworkSpec} can have. */
export type NetworkKind = NetworkSpec['kind'];

const agents = z.number().int().min(1).max(0x7ffffffe);
const count = z.number().int().min(0);
const probability = z.number().min(0).max(1);
const path = z.string().min(1);

type ErdosRenyiSpec = Extract<NetworkSpec, { kind: 'erdos-renyi' }>;

const erdosRenyiSchema = z
  .strictObject({
    kind: z.literal('erdos-renyi'),
    n: agents,
    p: probability.optional(),
    m: count.optional(),
  })
  .refine((v) => (v.p === undefined) !== (v.m === undefined), {
    message: 'erdos-renyi needs exactly one of p (edge probability) or m (edge count)',
  })
  .transform((v) => v as ErdosRenyiSpec);

/**
 * Zod schema of {@link NetworkSpec}, a discriminated union on `kind` with strict objects
 * (unknown keys are errors, so typos surface). Worlds embed it in their parameter schemas,
 * e.g. `z.object({ network: networkSpecSchema })`. It checks types and ranges; cross-field
 * rules (k even and < n, a symmetric p matrix...) are checked by the generators.
 */
export const networkSpecSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ring-lattice'), n: agents, k: count }),
  z.strictObject({ kind: z.literal('watts-strogatz'), n: agents, k: count, beta: probability }),
  erdosRenyiSchema,
  z.strictObject({ kind: z.literal('barabasi-albert'), n: agents, m: count.min(1) }),
  z.strictObject({
    kind: z.literal('stochastic-block-model'),
    sizes: z.array(agents).min(1),
    p: z.array(z.array(probability)).min(1),
  }),
  z.strictObject({ kind: z.literal('complete'), n: agents }),
  z.strictObject({ kind: z.literal('csv'), path }),
  z.strictObject({ kind: z.literal('graphology-json'), path }),
]) satisfies z.ZodType<NetworkSpec>;
