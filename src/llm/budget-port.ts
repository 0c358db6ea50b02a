import { BudgetExceededError, LlmCallError } from './llm-errors.ts';
import { costOf, DEFAULT_MODEL_PRICES, type ModelPrice, priceForCall } from './model-prices.ts';
import type { LlmAttempt, LlmPort, LlmReply, LlmRequest, TokenUsage } from './port.ts';

/** Options of {@link BudgetPort}. */
export interface BudgetOptions {
  /** Most input + output tokens the run may spend; unlimited when absent. */
  maxTokens?: number;
  /** Most USD the run may spend; unlimited when absent. */
  maxCostUsd?: number;
  /** Prices per model, merged over {@link DEFAULT_MODEL_PRICES}. */
  prices?: Record<string, ModelPrice>;
}

/** What a run has spent so far. */
export interface BudgetSpent {
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  /** Calls that reached the endpoint (successful or not). */
  calls: number;
}

/**
 * A per-run budget in tokens and in money. Before a call, if what was spent has already
 * reached a limit, throws {@link BudgetExceededError} (the engine stops cleanly at the next
 * tick boundary). Calls already in flight finish and are counted, so a run may overshoot by
 * at most the calls in flight. Tokens of discarded attempts (malformed replies) count too.
 */
export class BudgetPort implements LlmPort {
  private readonly maxTokens: number | undefined;
  private readonly maxCostUsd: number | undefined;
  private readonly prices: Readonly<Record<string, ModelPrice>>;
  private readonly total: BudgetSpent = { tokensIn: 0, tokensOut: 0, costUsd: 0, calls: 0 };

  constructor(
    private readonly inner: LlmPort,
    options: BudgetOptions = {},
  ) {
    this.maxTokens = options.maxTokens;
    this.maxCostUsd = options.maxCostUsd;
    this.prices = { ...DEFAULT_MODEL_PRICES, ...options.prices };
  }

  /** A copy of what was spent so far. */
  spent(): BudgetSpent {
    return { ...this.total };
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    this.check(request);
    let reply: LlmReply;
    try {
      reply = await this.inner.complete(request);
    } catch (err) {
      if (err instanceof LlmCallError) this.add(request.params.model, undefined, err.attempts, undefined);
      throw err;
    }
    if (!reply.cached) this.add(request.params.model, reply.usage, reply.attempts, reply.model);
    return reply;
  }

  private check(request: LlmRequest): void {
    const { tokensIn, tokensOut, costUsd } = this.total;
    const who = `(${request.caller} at tick ${request.tick} was about to call ${request.params.model})`;
    if (this.maxTokens !== undefined && tokensIn + tokensOut >= this.maxTokens)
      throw new BudgetExceededError(
        `token budget spent: ${tokensIn + tokensOut} of ${this.maxTokens} tokens ${who}`,
      );
    if (this.maxCostUsd !== undefined && costUsd >= this.maxCostUsd)
      throw new BudgetExceededError(
        `money budget spent: $${costUsd.toFixed(4)} of $${this.maxCostUsd} ${who}`,
      );
  }

  private add(
    requestedModel: string,
    usage: TokenUsage | undefined,
    attempts: readonly LlmAttempt[],
    reportedModel: string | undefined,
  ): void {
    let tokensIn = usage?.input ?? 0;
    let tokensOut = usage?.output ?? 0;
    for (const a of attempts) {
      tokensIn += a.usage?.input ?? 0;
      tokensOut += a.usage?.output ?? 0;
    }
    const price = priceForCall(reportedModel, requestedModel, this.prices);
    this.total.tokensIn += tokensIn;
    this.total.tokensOut += tokensOut;
    this.total.costUsd += costOf(tokensIn, tokensOut, price);
    this.total.calls++;
  }
}
