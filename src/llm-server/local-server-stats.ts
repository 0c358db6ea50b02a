import { FAULT_KINDS, type FaultKind } from './serve-llm-options.ts';

/** Counters of a running local server. */
export interface LocalServerStats {
  /** TCP connections accepted. */
  connections: number;
  /** HTTP requests received (any route). */
  requests: number;
  /** Chat completions answered normally (faults excluded). */
  completions: number;
  /** Injected faults, by kind. */
  faults: Record<FaultKind, number>;
  /** Prompt tokens of the completions answered normally. */
  tokensIn: number;
  /** Completion tokens of the completions answered normally. */
  tokensOut: number;
}

/** Fresh counters, every fault kind at 0. */
export function emptyStats(): LocalServerStats {
  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  return { connections: 0, requests: 0, completions: 0, faults, tokensIn: 0, tokensOut: 0 };
}
