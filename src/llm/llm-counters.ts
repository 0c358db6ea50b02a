import { costOf, type ModelPrice, priceForCall } from './model-prices.ts';
import { attemptsOf, cachedOf, type LlmCallRecord } from './recording-port.ts';

/**
 * What a run's LLM calls cost, counted once from the call records (the only count: the
 * budget, the run summary and the study totals all read it).
 */
export interface LlmCounters {
  calls: number;
  /** Calls that failed after all retries. */
  failures: number;
  tokensIn: number;
  tokensOut: number;
  retries: number;
  /** Incremented by `decideStructured` when a decision falls back to its default. */
  fallbacks: number;
  costUsd: number;
  cacheHits: number;
}

/** Counters of a run that has made no call yet. */
export function zeroCounters(): LlmCounters {
  return {
    calls: 0,
    failures: 0,
    tokensIn: 0,
    tokensOut: 0,
    retries: 0,
    fallbacks: 0,
    costUsd: 0,
    cacheHits: 0,
  };
}

/**
 * Adds one call record to run counters: calls, failures, retries, tokens (those of failed
 * attempts included: the endpoint billed them), cost, cache hits. Cached replies cost nothing.
 */
export function countCall(
  counters: LlmCounters,
  record: LlmCallRecord,
  prices: Readonly<Record<string, ModelPrice>>,
): void {
  counters.calls++;
  if (record.reply === null) counters.failures++;
  const attempts = attemptsOf(record);
  counters.retries += record.reply === null ? Math.max(0, attempts.length - 1) : attempts.length;
  if (cachedOf(record)) {
    counters.cacheHits++;
    return;
  }
  let tokensIn = record.reply?.usage.input ?? 0;
  let tokensOut = record.reply?.usage.output ?? 0;
  for (const a of attempts) {
    tokensIn += a.usage?.input ?? 0;
    tokensOut += a.usage?.output ?? 0;
  }
  counters.tokensIn += tokensIn;
  counters.tokensOut += tokensOut;
  counters.costUsd += costOf(
    tokensIn,
    tokensOut,
    priceForCall(record.reply?.model, record.params.model, prices),
  );
}

/** A run's token and money limits (absent: unlimited). */
export interface BudgetLimits {
  budgetTokens?: number;
  budgetUsd?: number;
}

/**
 * Why the run should stop, or null: once the counted tokens or cost reach a limit. Checked
 * at tick boundaries (so a run stops with a complete tick, whatever order calls finished
 * in), a run overshoots by at most one tick's calls.
 */
export function budgetSpent(counters: LlmCounters, limits: BudgetLimits): string | null {
  const tokens = counters.tokensIn + counters.tokensOut;
  if (limits.budgetTokens !== undefined && tokens >= limits.budgetTokens) return 'budget-exhausted';
  if (limits.budgetUsd !== undefined && counters.costUsd >= limits.budgetUsd) return 'budget-exhausted';
  return null;
}
