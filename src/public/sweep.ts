// `grapevine/sweep`: parameter grids × replicates on a pool of worker threads (docs/SWEEPS.md).

export type {
  RunFailure,
  RunOutcome,
  RunPoolOptions,
  RunTask,
  SweepOptions,
  SweepResult,
  SweepSpec,
  WorldLocator,
} from '../sweep/index.ts';
export { latinHypercube, planSweep, RunPool, runSeed, runSweep } from '../sweep/index.ts';
