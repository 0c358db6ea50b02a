/** zod, re-exported so that world files need no other import to declare parameters. */
export { z } from 'zod';
export * from './agent/index.ts';
export * from './bus/index.ts';
export * from './clock/index.ts';
export * from './core/index.ts';
export * from './llm/index.ts';
/** Token estimate of the LLM rate limiter (the memory module has its own, for prompt budgets). */
export { estimateTokens } from './llm/index.ts';
export * from './memory/index.ts';
export * from './network/index.ts';
/** Statistics for analysing runs and studies (library-backed; see src/stats). */
export type {
  BootstrapOptions,
  EstimateCi,
  McNemarResult,
  MeanCi,
  PairedTTestResult,
  ProportionCi,
} from './stats/index.ts';
export {
  averageBy,
  bootstrapCi,
  holm,
  mcnemar,
  meanCi,
  pairedTTest,
  studentTCdf,
  studentTQuantile,
  wilson,
} from './stats/index.ts';
export * from './world/index.ts';
