import { LlmCallError } from './llm-errors.ts';
import type { LlmAttempt, LlmPort, LlmReply, LlmRequest, TokenUsage } from './port.ts';
import { timerSleep } from './retrying-port.ts';

/** Options of {@link RateLimitPort}. */
export interface RateLimitOptions {
  /** Requests per minute; unlimited when absent. */
  requestsPerMinute?: number;
  /** Input + output tokens per minute; unlimited when absent. */
  tokensPerMinute?: number;
  /** Milliseconds from any fixed origin. Defaults to `performance.now`. */
  now?: () => number;
  /** Waits `ms`. Defaults to a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Tokens a request will cost, guessed before the call (default: {@link estimateTokens}). */
  estimate?: (request: LlmRequest) => number;
}

/**
 * A rough token count of a request before it is sent: about four characters per token of
 * the messages, plus the reply's `maxTokens` (or 256 when unset). The fallback for models
 * whose tokenizer is unknown (`openLlm` counts with the real one when `modelTokenCounter`
 * knows the model); it only gates `--llm-tpm` admission and is corrected by the real usage
 * after the call.
 */
export function estimateTokens(request: LlmRequest): number {
  let chars = 0;
  for (const m of request.messages) chars += m.content.length + 16;
  return Math.ceil(chars / 4) + (request.params.maxTokens ?? 256);
}

/** A token bucket that refills continuously and may go negative after a correction. */
class Bucket {
  private level: number;
  private last: number;
  private readonly perMs: number;

  constructor(
    readonly capacity: number,
    now: number,
  ) {
    this.level = capacity;
    this.last = now;
    this.perMs = capacity / 60_000;
  }

  /** Milliseconds until `amount` (at most the capacity) is available; 0 when it is now. */
  waitMs(amount: number, now: number): number {
    this.level = Math.min(this.capacity, this.level + (now - this.last) * this.perMs);
    this.last = now;
    const want = Math.min(amount, this.capacity);
    return this.level >= want ? 0 : Math.ceil((want - this.level) / this.perMs);
  }

  take(amount: number): void {
    this.level -= amount;
  }
}

/**
 * Shared requests-per-minute and tokens-per-minute limits for every call that goes through
 * it (token buckets, one minute of burst). The token cost is estimated before a call and
 * corrected with the real usage after it. Callers are admitted in FIFO order.
 */
export class RateLimitPort implements LlmPort {
  private readonly requests: Bucket | undefined;
  private readonly tokens: Bucket | undefined;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly estimate: (request: LlmRequest) => number;
  private gate: Promise<void> = Promise.resolve();
  private waitedMs = 0;

  constructor(
    private readonly inner: LlmPort,
    options: RateLimitOptions = {},
  ) {
    // Rate limiting paces real HTTP calls; it never feeds simulation state.
    this.now = options.now ?? (() => performance.now()); // wall-clock-ok: rate limit
    this.sleep = options.sleep ?? timerSleep;
    this.estimate = options.estimate ?? estimateTokens;
    const t0 = this.now();
    this.requests = options.requestsPerMinute ? new Bucket(options.requestsPerMinute, t0) : undefined;
    this.tokens = options.tokensPerMinute ? new Bucket(options.tokensPerMinute, t0) : undefined;
  }

  /** Total time callers spent waiting for the limits, in ms. */
  get waitedTotalMs(): number {
    return this.waitedMs;
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const estimate = this.tokens ? this.estimate(request) : 0;
    const turn = this.gate.then(() => this.admit(estimate));
    this.gate = turn.catch(() => undefined);
    await turn;
    try {
      const reply = await this.inner.complete(request);
      this.tokens?.take(spent(reply.usage, reply.attempts) - estimate);
      return reply;
    } catch (err) {
      const attempts = err instanceof LlmCallError ? err.attempts : [];
      this.tokens?.take(spent(undefined, attempts) - estimate);
      throw err;
    }
  }

  /** Waits until both buckets can pay, then pays. */
  private async admit(estimate: number): Promise<void> {
    for (;;) {
      const now = this.now();
      const wait = Math.max(this.requests?.waitMs(1, now) ?? 0, this.tokens?.waitMs(estimate, now) ?? 0);
      if (wait <= 0) break;
      this.waitedMs += wait;
      await this.sleep(wait);
    }
    this.requests?.take(1);
    this.tokens?.take(estimate);
  }
}

function spent(usage: TokenUsage | undefined, attempts: readonly LlmAttempt[]): number {
  let total = usage ? usage.input + usage.output : 0;
  for (const a of attempts) if (a.usage) total += a.usage.input + a.usage.output;
  return total;
}
