import { ConfigError } from './errors.ts';
import { formatBytes, type MemoryBudget, memoryBudget } from './memory-budget.ts';

/** How many items a batch asks for, what they are, and what each holds in memory at least. */
export interface BatchSize {
  /** How many (runs, children, resamples, respondents); any number, checked here. */
  count: number;
  /** What one is, for the message: `runs`, `fork children`. */
  what: string;
  /** Where the count comes from, for the message: `--replicates 9007199254740991`. */
  from: string;
  /** Most there may be, whatever the memory. */
  max: number;
  /** Bytes one holds at least while the batch is planned or computed. */
  bytesEach: number;
  /** What to do instead. */
  hint: string;
}

/**
 * Refuses, before anything is allocated for it, a batch larger than its hard limit or than
 * the memory budget holds at `bytesEach` per item (see `MemoryBudget`): a `--replicates` of
 * 2^53 or a count of 2e9 people is then one line, not minutes of allocation and a native
 * crash.
 * @throws ConfigError naming the count, where it came from and the limit.
 */
export function checkBatchSize(b: BatchSize, budget: MemoryBudget = memoryBudget()): void {
  if (!Number.isFinite(b.count) || b.count > b.max)
    throw new ConfigError(`${b.from} makes ${b.count} ${b.what}, more than the ${b.max} one batch may hold`, {
      hint: b.hint,
    });
  const need = b.count * b.bytesEach;
  if (need > budget.bytes)
    throw new ConfigError(
      `${b.from} makes ${b.count} ${b.what}, which need at least ${formatBytes(need)}; this process has ${formatBytes(budget.bytes)} (${budget.source})`,
      { hint: b.hint },
    );
}
