/** One state of a knowledge/behaviour region. */
export interface RegionStateSpec {
  /** Event type -> target state in the same region. */
  on?: Record<string, string>;
  /** Tags; `active` marks states whose agents act every turn even with an empty inbox. */
  tags?: string[];
}

/** A flat region of the agent statechart (e.g. one region per knowledge item). */
export interface RegionSpec {
  initial: string;
  states: Record<string, RegionStateSpec>;
}

/** Storage type of a numeric memory column (columnar executor). */
export type MemoryType = 'u8' | 'i32' | 'f64';

/** A numeric memory slot of every agent. */
export interface MemorySlotSpec {
  initial: number;
  type?: MemoryType;
}

/** What a world declares about its agents' statechart. */
export interface AgentMachineSpec {
  id: string;
  regions: Record<string, RegionSpec>;
  /** Numeric memory slots, kept in the actor context (XState) or typed columns (columnar). */
  memory?: Record<string, MemorySlotSpec>;
  /**
   * Memory entries that hold JSON (text, lists, objects) rather than numbers. Declaring any
   * runs the agents on the XState executor, which keeps JSON; without them a machine whose
   * statechart compiles runs on the columnar executor, which keeps the numeric slots only.
   */
  jsonMemory?: readonly string[];
}
