import type { Digest, Json } from '../core/index.ts';

/** An agent's persisted state, in the shape of an XState persisted snapshot. */
export interface AgentSnapshot {
  status: 'active';
  value: Record<string, string>;
  historyValue: Record<string, never>;
  context: { mem: Record<string, Json> };
  children: Record<string, never>;
}

/**
 * Runs the statecharts of a whole population. Two implementations share this contract and
 * a conformance suite: {@link XStateExecutor} (one XState actor per agent, full statechart
 * semantics) and {@link ColumnarExecutor} (state and numeric memory in typed arrays).
 */
export interface AgentExecutor {
  readonly kind: 'xstate' | 'columnar';
  readonly size: number;
  /** Region names in table order; index 0 is the lifecycle region. */
  readonly regionNames: readonly string[];
  /** State names of a region, by region index. */
  stateNames(region: number): readonly string[];
  /** Sends an event to agent `i`'s machine. Returns true if its state changed. */
  send(i: number, event: string): boolean;
  /** Index of agent `i`'s current state in region `region`. */
  stateIndex(i: number, region: number): number;
  /** True if any of agent `i`'s current states is tagged `active`. */
  isActive(i: number): boolean;
  /** Number of agents in an active state. */
  activeCount(): number;
  /** Reads a memory slot of agent `i`. */
  getMemory(i: number, key: string): Json | undefined;
  /** Writes a memory slot of agent `i` (numeric slots only on the columnar executor). */
  setMemory(i: number, key: string, value: Json): void;
  /** Occupancy of each state of a region (live view, do not modify). */
  counts(region: number): Int32Array;
  /** Agent `i`'s persisted snapshot (plain JSON). */
  snapshot(i: number): AgentSnapshot;
  /** Replaces agent `i`'s state by a snapshot. */
  restore(i: number, snapshot: AgentSnapshot): void;
  /** Feeds the whole population's state into a digest, in a form both executors share. */
  digest(d: Digest): void;
  /** Bytes of state held per agent (approximate, for reports). */
  bytesPerAgent(): number;
}
