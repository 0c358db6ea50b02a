/** LLM activity of one tick, from the log's `llm` events. */
export interface LlmTick {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Failed attempts that were retried (the `wall.attempts` list of each call, `attempts` in older logs). */
  retries: number;
  /** Calls that failed after all retries (reply null): the world fell back. */
  failures: number;
  /** Calls served from the response cache (`wall.cached`, `cached` in older logs). */
  cached: number;
}

/** Adds one `llm` event to the per-tick tallies (keyed by the event's tick). */
export function tallyLlm(byTick: Map<number, LlmTick>, tick: number, event: Record<string, unknown>): void {
  let row = byTick.get(tick);
  if (!row) {
    row = { calls: 0, inputTokens: 0, outputTokens: 0, retries: 0, failures: 0, cached: 0 };
    byTick.set(tick, row);
  }
  row.calls++;
  const reply = event.reply as { usage?: { input?: number; output?: number } } | null;
  if (reply === null || reply === undefined) row.failures++;
  row.inputTokens += Number(reply?.usage?.input ?? 0);
  row.outputTokens += Number(reply?.usage?.output ?? 0);
  row.retries += failedAttempts(event);
  if (cacheHit(event)) row.cached++;
}

/** The failed attempts of an `llm` event: `wall.attempts`, or `attempts` in logs written before they moved there. */
function failedAttempts(event: Record<string, unknown>): number {
  if (Array.isArray(event.attempts) && event.attempts.length > 0) return event.attempts.length;
  const wall = event.wall as { attempts?: unknown } | undefined;
  return Array.isArray(wall?.attempts) ? wall.attempts.length : 0;
}

/** A cache hit: `wall.cached`, or `cached` in logs written before it moved there. */
function cacheHit(event: Record<string, unknown>): boolean {
  return event.cached === true || (event.wall as { cached?: unknown } | undefined)?.cached === true;
}
