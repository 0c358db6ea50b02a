import type { Json } from '../core/index.ts';
import type { LlmFlags } from '../llm/index.ts';

/**
 * How a worker thread finds the world of a run: it imports `loaderUrl` and calls its
 * export `loadRunWorld(ref, data)`, which resolves to `{ def, source }`. The CLI's loader
 * knows built-in ids and world files; a library user may pass a module of their own.
 */
export interface WorldLocator {
  /** URL of an ES module exporting `loadRunWorld`. */
  loaderUrl: string;
  /** The world: a built-in id or a world file's path (absolute). */
  ref: string;
  /** Anything else the loader needs (structured-cloneable). */
  data?: Json;
}

/** One run for a worker: a world, its parameters and seed, and where to write its log. */
export interface RunTask {
  /** Position of the run in its batch (results are keyed by it). */
  index: number;
  world: WorldLocator;
  params: Record<string, Json>;
  seed: number;
  ticks?: number;
  /** Absolute path of the replay log to (over)write. */
  log: string;
  /**
   * The LLM flags of the batch (plain strings, as `grapevine run` takes them), with an
   * endpoint named: a world that needs an LLM opens one from them; other worlds ignore them.
   */
  llm?: LlmFlags;
  /** Most log lines the run may write; past it the run fails and its log is removed (a queue worker's limit). */
  maxEvents?: number;
  /**
   * The only files a parameter of this run may name (absolute paths), when its parameters
   * are untrusted (a queue spec): the world's `resolvePath` refuses any other. Undefined:
   * the parameters are the user's own (a local sweep) and name any file.
   */
  inputFiles?: string[];
}

/** The error code of a run stopped by a queue worker's limit (events or wall-clock time). */
export const LIMIT_STOP = 'E_RUN_LIMIT';

/** What a finished run reports back (plain data, sent between threads). */
export interface RunOutcome {
  index: number;
  digest: string;
  ticks: number;
  reason: string;
  metrics: Record<string, number>;
  summary: Record<string, Json>;
  /** What the run's LLM calls spent (runs of worlds that need an LLM; not in the results table). */
  llmSpent?: LlmSpent;
}

/** Tokens (in and out) and money a run's LLM calls spent. */
export interface LlmSpent {
  tokens: number;
  costUsd: number;
}

/** The error code of a run stopped because the batch's LLM budget was spent (its log removed: it is redone on resume). */
export const BUDGET_STOP = 'E_BUDGET';

/** A run that failed: the error's message, code and hint (errors do not cross threads intact). */
export interface RunFailure {
  index: number;
  error: { message: string; code?: string; hint?: string; exitCode?: 1 | 2 };
  /** What the run's LLM calls spent before it failed or was stopped. */
  llmSpent?: LlmSpent;
}
