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
  /**
   * Tokens (in + out) and cost of the replies served from the cache, as the model billed them
   * when it gave them: not spent again, but counted by the budget, so that a budget-capped
   * rerun served from the cache stops where the run that asked the model stopped.
   */
  cachedTokens: number;
  cachedCostUsd: number;
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
    cachedTokens: 0,
    cachedCostUsd: 0,
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
  let tokensIn = record.reply?.usage.input ?? 0;
  let tokensOut = record.reply?.usage.output ?? 0;
  for (const a of attempts) {
    tokensIn += a.usage?.input ?? 0;
    tokensOut += a.usage?.output ?? 0;
  }
  const cost = costOf(tokensIn, tokensOut, priceForCall(record.reply?.model, record.params.model, prices));
  if (cachedOf(record)) {
    counters.cacheHits++;
    counters.cachedTokens += tokensIn + tokensOut;
    counters.cachedCostUsd += cost;
    return;
  }
  counters.tokensIn += tokensIn;
  counters.tokensOut += tokensOut;
  counters.costUsd += cost;
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
  // cache hits count as the model billed them: the stop tick must not depend on the cache
  const tokens = counters.tokensIn + counters.tokensOut + counters.cachedTokens;
  const usd = counters.costUsd + counters.cachedCostUsd;
  if (limits.budgetTokens !== undefined && tokens >= limits.budgetTokens) return 'budget-exhausted';
  if (limits.budgetUsd !== undefined && usd >= limits.budgetUsd) return 'budget-exhausted';
  return null;
}
