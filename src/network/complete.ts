import { CompleteTopology } from './complete-topology.ts';
import { checkNodeCount } from './param-checks.ts';

/** Parameters of {@link complete}. */
export interface CompleteParams {
  /** Number of agents (>= 1). */
  n: number;
}

/**
 * A well-mixed population of n agents where everyone is adjacent to everyone, as a
 * {@link CompleteTopology} (never materialised, so any n is cheap).
 * @throws ConfigError unless n is an integer >= 1.
 */
export function complete(params: CompleteParams): CompleteTopology {
  return new CompleteTopology(checkNodeCount('complete', params.n));
}
