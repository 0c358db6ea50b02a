import type { Rng } from '../core/index.ts';
import { isSalvageableJson } from './json-repair.ts';
import { LlmCallError } from './llm-errors.ts';
import type { LlmAttempt, LlmPort, LlmReply, LlmRequest } from './port.ts';

/** Options of {@link RetryingPort}. */
export interface RetryOptions {
  /** Seeded stream the jitter is drawn from (e.g. `streams.stream('llm-retry')`). */
  rng: Rng;
  /** Attempts in all, the first included (default 6). */
  maxAttempts?: number;
  /** Back-off before the 2nd attempt, doubled after each failure (default 200 ms). */
  baseDelayMs?: number;
  /** Cap of the exponential back-off (default 20 000 ms); a server's retry-after may exceed it. */
  maxDelayMs?: number;
  /** Waits `ms`; inject a fake in tests. Defaults to a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** A timer-based sleep: the only wall-clock wait of the retry layer. */
export function timerSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms)); // wall-clock-ok: retry back-off
}

/**
 * Retries transient failures (429, 5xx, timeouts, dropped connections, malformed replies) with
 * exponential back-off and jitter, honouring the server's retry-after. In JSON mode a reply
 * whose text cannot be made into JSON even by the lenient parser counts as malformed. Each
 * failed attempt is kept in `reply.attempts`; when all fail, the last {@link LlmCallError} is
 * thrown with every attempt. Non-retryable failures (4xx) are thrown at once. An endpoint
 * that never answered and refused a call's every attempt (no connection, no such host) is
 * not retried again: each later call that cannot connect either fails at its first attempt,
 * so a dead endpoint fails a run in seconds, and {@link unreachable} says why.
 */
export class RetryingPort implements LlmPort {
  private readonly rng: Rng;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private retries = 0;
  private answered = false;
  private deadReason: string | undefined;

  constructor(
    private readonly inner: LlmPort,
    options: RetryOptions,
  ) {
    this.rng = options.rng;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 6);
    this.baseDelayMs = options.baseDelayMs ?? 200;
    this.maxDelayMs = options.maxDelayMs ?? 20_000;
    this.sleep = options.sleep ?? timerSleep;
  }

  /**
   * Why the endpoint cannot be reached (`connection refused: …`, `host not found: …`) once a
   * call gave up without ever connecting and no call was ever answered; else undefined.
   */
  get unreachable(): string | undefined {
    return this.answered ? undefined : this.deadReason;
  }

  /** Number of retried attempts so far (across all calls). */
  get retryCount(): number {
    return this.retries;
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const attempts: LlmAttempt[] = [];
    for (let n = 1; ; n++) {
      let failure: LlmCallError;
      try {
        const reply = await this.inner.complete(request);
        this.answered = true;
        const malformed = checkJson(request, reply);
        if (!malformed) return { ...reply, attempts: [...attempts, ...reply.attempts] };
        failure = malformed;
      } catch (err) {
        if (!(err instanceof LlmCallError)) throw err;
        failure = err;
      }
      const unreachable = !this.answered && failure.kind === 'connection';
      const last =
        !failure.retryable || n >= this.maxAttempts || (unreachable && this.deadReason !== undefined);
      const backoffMs = last ? 0 : this.backoff(n, failure.retryAfterMs);
      attempts.push(attemptOf(failure, backoffMs));
      if (last && unreachable) this.deadReason ??= connectionReason(failure.message);
      if (last) throw failure.withAttempts(attempts, finalMessage(failure, n));
      this.retries++;
      await this.sleep(backoffMs);
    }
  }

  /**
   * Back-off after the n-th failure: half of min(max, base * 2^(n-1)) plus a seeded random
   * part of the other half ("equal jitter"); at least the server's retry-after when given.
   */
  private backoff(n: number, retryAfterMs: number | undefined): number {
    const exp = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (n - 1));
    const jittered = Math.round(exp / 2 + this.rng.next() * (exp / 2));
    return retryAfterMs === undefined ? jittered : Math.max(Math.ceil(retryAfterMs), jittered);
  }
}

function attemptOf(err: LlmCallError, backoffMs: number): LlmAttempt {
  return err.usage ? { error: err.label, backoffMs, usage: err.usage } : { error: err.label, backoffMs };
}

/** In JSON mode, an error for a reply that not even the lenient parser can read. */
function checkJson(request: LlmRequest, reply: LlmReply): LlmCallError | undefined {
  if (!request.params.json || isSalvageableJson(reply.text)) return undefined;
  const excerpt = reply.text.length > 80 ? `${reply.text.slice(0, 80)}...` : reply.text;
  return new LlmCallError(
    'malformed',
    `LLM call failed (malformed): JSON reply does not parse: ${JSON.stringify(excerpt)}`,
    {
      usage: reply.usage,
    },
  );
}

/** What a connection failure's message says, in words: refused, no such host, or the failure itself. */
function connectionReason(message: string): string {
  const detail = message.replace(/^LLM call failed \(connection\): /, '');
  if (/ECONNREFUSED/.test(message)) return `connection refused (${detail})`;
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return `host not found in DNS (${detail})`;
  return `no connection (${detail})`;
}

function finalMessage(err: LlmCallError, attempts: number): string {
  if (attempts === 1) return err.message;
  return `${err.message} (gave up after ${attempts} attempts)`;
}
