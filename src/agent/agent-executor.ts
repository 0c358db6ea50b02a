import type { Digest, Json } from '../core/index.ts';
import type { MachineLayout } from './machine-layout.ts';

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
 * Regions, states, events and memory slots are addressed by the numbers of the machine's
 * {@link MachineLayout}; the name-based methods are conveniences.
 */
export interface AgentExecutor {
  readonly kind: 'xstate' | 'columnar';
  readonly size: number;
  readonly layout: MachineLayout;
  /** Region names in layout order; index 0 is the lifecycle region. */
  readonly regionNames: readonly string[];
  /** State names of a region, by region index. */
  stateNames(region: number): readonly string[];
  /** Sends an event (by layout id) to agent `i`'s machine. Returns true if its state changed. */
  sendId(i: number, event: number): boolean;
  /** Sends an event by name. */
  send(i: number, event: string): boolean;
  /** Starts agent `i`'s step (lifecycle: idle -> deliberating). */
  beginStep(i: number): void;
  /** Ends agent `i`'s step (lifecycle: deliberating -> idle). */
  endStep(i: number): void;
  /** Index of agent `i`'s current state in region `region`. */
  stateIndex(i: number, region: number): number;
  /** True if any of agent `i`'s current states is tagged `active`. */
  isActive(i: number): boolean;
  /** Number of agents in an active state. */
  activeCount(): number;
  /** 1 per agent in an active state (live view, do not modify). */
  activeMask(): Uint8Array;
  /** The agents in an active state, in no particular order (live view until the next change). */
  activeAgents(): Int32Array;
  /** Reads numeric memory slot `k` of agent `i`. */
  slot(i: number, k: number): number;
  /** Writes numeric memory slot `k` of agent `i` (stored as the slot's type). */
  setSlot(i: number, k: number, value: number): void;
  /** Reads a memory entry by name (a slot, or any JSON on the XState executor). */
  getMemory(i: number, key: string): Json | undefined;
  /** Writes a memory entry by name (numeric slots only on the columnar executor). */
  setMemory(i: number, key: string, value: Json): void;
  /**
   * Writes several memory entries of agent `i`, in order: the same state (and the same error
   * at the same entry) as {@link AgentExecutor.setMemory} for each. Optional: an executor
   * may write them in fewer steps (the XState one sends one event for consecutive JSON keys).
   */
  setMemories?(i: number, entries: readonly (readonly [string, Json])[]): void;
  /** Occupancy of each state of a region (live view, do not modify). */
  counts(region: number): Int32Array;
  /**
   * A number that moves whenever any agent's state or memory changes (it counts the writes
   * that changed a value). Optional: an executor that cannot see every write (XState: JSON
   * memory, `assign` actions) leaves it out, and callers then assume that anything changed.
   */
  changeCount?(): number;
  /**
   * Like {@link changeCount}, for states only: it moves whenever any agent's state (a region)
   * changes, not on memory writes. Optional, as `changeCount` is.
   */
  stateChangeCount?(): number;
  /** Agent `i`'s persisted snapshot (plain JSON). */
  snapshot(i: number): AgentSnapshot;
  /** Replaces agent `i`'s state by a snapshot. */
  restore(i: number, snapshot: AgentSnapshot): void;
  /** The incremental 64-bit state hash (16 hex), the same on both executors. */
  stateHash(): string;
  /** Feeds the whole population's state into a digest, in a form both executors share. */
  digest(d: Digest): void;
  /** The whole population's state as plain JSON (for snapshots). */
  exportState(): Json;
  /**
   * {@link AgentExecutor.exportState} with its long columns as `Base64Text` views of the
   * executor's own arrays, encoded only when written (its canonical JSON is exportState's).
   * Valid until the population next changes: write it at once. Optional.
   */
  exportStateView?(): Json;
  /** Replaces the whole population's state by {@link AgentExecutor.exportState}'s output. */
  importState(state: Json): void;
  /** Bytes of typed state per agent (the columnar executor's columns). */
  bytesPerAgent(): number;
}
