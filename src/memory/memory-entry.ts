/** What a memory records: something seen or heard, something done, or a conclusion drawn. */
export type MemoryKind = 'observation' | 'action' | 'reflection';

/** The memory kinds, in their canonical order. */
export const MEMORY_KINDS: readonly MemoryKind[] = ['observation', 'action', 'reflection'];

/**
 * One entry of an agent's memory stream. Plain JSON: it lives in the agent's context and
 * in snapshots. A type alias (not an interface) so that it is assignable to `Json`.
 */
export type MemoryEntry = {
  /** Per-agent counter: unique within the stream and increasing in insertion order. */
  id: number;
  /** Simulation tick the memory was formed at. */
  t: number;
  kind: MemoryKind;
  text: string;
  /** Poignancy, an integer in 1..10 (1 mundane, 10 life-changing). */
  importance: number;
  /** Who said it or where it was seen (an agent name, a channel...). */
  source?: string;
};

/** A memory to add: an entry without its id; `importance` is estimated when absent. */
export type NewMemory = {
  t: number;
  kind: MemoryKind;
  text: string;
  importance?: number;
  source?: string;
};

/**
 * An agent's whole memory stream, as plain JSON. Treat it as immutable: the functions of
 * this module return new states and never modify their arguments.
 */
export type MemoryStreamState = {
  /** Id the next remembered entry gets. */
  nextId: number;
  /** Entries in ascending id order. */
  entries: MemoryEntry[];
};
