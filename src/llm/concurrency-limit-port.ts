import type { LlmPort, LlmReply, LlmRequest } from './port.ts';

/**
 * Lets at most `maxInFlight` calls (default 16) run in the inner port at once; the others
 * wait in a FIFO queue and start in the order they arrived.
 */
export class ConcurrencyLimitPort implements LlmPort {
  /** The limit. */
  readonly maxInFlight: number;
  private running = 0;
  private peak = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly inner: LlmPort,
    maxInFlight = 16,
  ) {
    if (!Number.isInteger(maxInFlight) || maxInFlight < 1)
      throw new RangeError(`concurrency limit must be a positive integer, got ${maxInFlight}`);
    this.maxInFlight = maxInFlight;
  }

  /** Calls running now, calls queued, and the most that ever ran at once. */
  stats(): { inFlight: number; queued: number; peakInFlight: number } {
    return { inFlight: this.running, queued: this.waiting.length, peakInFlight: this.peak };
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    await this.acquire();
    try {
      return await this.inner.complete(request);
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.maxInFlight) {
      this.start();
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, so a newcomer cannot overtake the queue. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private start(): void {
    this.running++;
    if (this.running > this.peak) this.peak = this.running;
  }
}
