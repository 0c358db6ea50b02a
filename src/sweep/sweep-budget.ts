import type { LlmFlags } from '../llm/index.ts';
import type { LlmSpent } from './run-task.ts';

/** A batch's LLM budget: `--budget-tokens` and `--budget-usd` as `grapevine run` resolves them. */
export interface BudgetLimits {
  budgetTokens?: number;
  budgetUsd?: number;
}

/**
 * The LLM budget of a whole batch of runs (a sweep, a queue worker): what its runs spent so
 * far, summed as each run ends. No run starts once it is spent, and each run is given what
 * is left of it as its own budget (checked at its tick boundaries, as in `run`), so a run
 * stops at the first tick boundary where it alone has spent what was left when it started.
 */
export class BatchBudget {
  private tokens = 0;
  private usd = 0;

  constructor(private readonly limits: BudgetLimits) {}

  /** True when a limit is set. */
  get limited(): boolean {
    return this.limits.budgetTokens !== undefined || this.limits.budgetUsd !== undefined;
  }

  /** Adds what one run spent. */
  add(spent: LlmSpent | undefined): void {
    this.tokens += spent?.tokens ?? 0;
    this.usd += spent?.costUsd ?? 0;
  }

  /** True once a limit is reached (the meaning of `run`'s budget: spent >= limit). */
  spent(): boolean {
    const { budgetTokens, budgetUsd } = this.limits;
    return (
      (budgetTokens !== undefined && this.tokens >= budgetTokens) ||
      (budgetUsd !== undefined && this.usd >= budgetUsd)
    );
  }

  /** The LLM flags of the next run: the batch's flags with what is left of each limit. */
  flagsFor(flags: LlmFlags): LlmFlags {
    const { budgetTokens, budgetUsd } = this.limits;
    return {
      ...flags,
      ...(budgetTokens === undefined ? {} : { budgetTokens: budgetTokens - this.tokens }),
      ...(budgetUsd === undefined ? {} : { budgetUsd: budgetUsd - this.usd }),
    };
  }

  /** What was spent, for the user. */
  describe(): string {
    return `${this.tokens} tokens, $${this.usd.toFixed(4)}`;
  }
}
