import { hasPrice, type LlmCounters, LOCAL_MODEL } from '../llm/index.ts';

/**
 * One line of LLM counters for a run summary. With `model`, the cost is shown only for a
 * model with a known price (or the shipped local server's, which costs nothing); for any
 * other it says the cost is unknown.
 */
export function describeCounters(c: LlmCounters, model?: string): string {
  const cost =
    model === undefined || model === LOCAL_MODEL || hasPrice(model)
      ? `$${c.costUsd.toFixed(4)}`
      : `cost unknown (no price for ${model})`;
  return `${c.calls} calls, ${c.tokensIn} tokens in / ${c.tokensOut} out, ${c.retries} retries, ${c.failures} failed calls, ${c.fallbacks} fallbacks, ${cost}, ${c.cacheHits} cache hits`;
}

/** True when a run of `model` has a known cost (a priced model, or the shipped local server's). */
export function costKnown(model: string): boolean {
  return model === LOCAL_MODEL || hasPrice(model);
}
