import { z } from 'zod';

/** The network generators a world can offer as its `network` parameter, in the order rumor and opinion list them. */
export const networkKinds = [
  'watts-strogatz',
  'erdos-renyi',
  'barabasi-albert',
  'stochastic-block-model',
  'ring-lattice',
  'complete',
  'csv',
] as const;

/**
 * The parameters of `network=stochastic-block-model` as a zod shape that a world spreads into
 * its parameter schema (`z.object({ ..., ...blockModelParams })`), so every world that offers
 * the block model declares them the same way. They have no defaults: a run on another
 * network records none of them, as before they existed, and `networkFromParams` asks for all
 * three when the block model is chosen.
 */
export const blockModelParams = {
  blocks: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('stochastic-block-model: number of blocks (near-equal sizes)'),
  pIn: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('stochastic-block-model: edge probability within a block'),
  pOut: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('stochastic-block-model: edge probability between two blocks'),
};
