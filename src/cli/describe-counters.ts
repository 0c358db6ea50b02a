import type { LlmCounters } from '../llm/index.ts';

/** One line of LLM counters for a run summary. */
export function describeCounters(c: LlmCounters): string {
  return `${c.calls} calls, ${c.tokensIn} tokens in / ${c.tokensOut} out, ${c.retries} retries, ${c.failures} failed calls, ${c.fallbacks} fallbacks, $${c.costUsd.toFixed(4)}, ${c.cacheHits} cache hits`;
}
