import { ConfigError, formatBytes, type MemoryBudget, memoryBudget, RunError } from '../core/index.ts';

/**
 * Bytes one delivery row in flight holds, at most: its recipient and message index (two
 * Int32, doubled for the columns' growth headroom) and its place in the released inboxes.
 */
export const BYTES_PER_ROW = 24;

/** Bytes one message in flight holds, at most: its columns (doubled for growth headroom) and a payload entry. */
export const BYTES_PER_MESSAGE = 100;

/** Bytes a message takes as an object while a snapshot is written (its batch's `messages` list). */
export const SNAPSHOT_BYTES_PER_MESSAGE = 400;

/** Share of the memory budget the deliveries in flight may take (the rest: network, agents, log). */
export const BUS_SHARE = 0.5;

/** Rows appended between two checks, at most (the check itself is a sum over the batches). */
const MAX_CHECK_STEP = 1 << 16;

/** What the bus holds in flight: delivery rows (each one recipient and one message index) and messages. */
export interface BusStateCount {
  /** Delivery rows in flight (all pending batches and the waiting inbox). */
  rows: number;
  /** Messages those rows point to. */
  messages: number;
  /** The tick being run (for the error message). */
  tick: number;
}

/** Estimated bytes the deliveries in flight hold in the bus ({@link BYTES_PER_ROW}, {@link BYTES_PER_MESSAGE}). */
export function estimateInFlightBytes(c: BusStateCount): number {
  return BYTES_PER_ROW * c.rows + BYTES_PER_MESSAGE * c.messages;
}

/**
 * Watches the deliveries in flight grow against {@link BUS_SHARE} of the run's memory
 * budget (see `MemoryBudget`), so that a run too large to hold its own deliveries stops
 * with one line instead of being killed for lack of memory. The caller counts the rows it
 * appends ({@link BusGrowthGuard.due}, one addition and one comparison per send) and calls
 * {@link BusGrowthGuard.check} when due; the next check is placed so that the estimate
 * cannot pass the allowance before it (every row counted with one message at most).
 */
export class BusGrowthGuard {
  /** Bytes the deliveries in flight may hold. */
  readonly allowance: number;
  private step: number;
  private since = 0;

  constructor(readonly budget: MemoryBudget = memoryBudget()) {
    this.allowance = budget.bytes * BUS_SHARE;
    // The first checks come after 1, 2, 4, ... rows, so that the check's call is reached
    // before V8 optimises the send path that holds it; reached first at row 65,536, in code
    // already optimised, it made V8 throw that code away and compile it again.
    this.step = 1;
  }

  /** Counts `rows` appended; true when {@link check} is due. */
  due(rows: number): boolean {
    this.since += rows;
    return this.since >= this.step;
  }

  /**
   * Checks the whole state in flight and places the next check.
   * @throws ConfigError (exit 2) when it does not fit at tick 0 (the run's start, given by
   *   its parameters), RunError (exit 1) at a later tick; both say how much it needs.
   */
  check(c: BusStateCount): void {
    const need = estimateInFlightBytes(c);
    this.since = 0;
    this.step = Math.min(2 * this.step, this.stepFor(need));
    if (need <= this.allowance) return;
    const text = `the ${c.rows} deliveries (${c.messages} messages) in flight at tick ${c.tick} need about ${formatBytes(need)}; the run may give them ${formatBytes(this.allowance)}, half its memory budget of ${formatBytes(this.budget.bytes)} (${this.budget.source})`;
    if (c.tick <= 0)
      throw new ConfigError(text, {
        hint: 'run fewer agents, a sparser network or a lower spreading probability, or raise GRAPEVINE_MEMORY_LIMIT',
      });
    throw new RunError(text, {
      hint: `the log holds every tick before tick ${c.tick}: continue it with grapevine resume LOG where more memory is available (a larger GRAPEVINE_MEMORY_LIMIT or machine)`,
    });
  }

  private stepFor(need: number): number {
    const room = Math.floor((this.allowance - need) / (BYTES_PER_ROW + BYTES_PER_MESSAGE));
    return Math.max(1, Math.min(MAX_CHECK_STEP, room));
  }
}

/**
 * Refuses a snapshot whose messages, as the objects its batches list, would not fit in the
 * deliveries' share of the budget. The delivery columns are not counted: they are written
 * part by part from the bus's own columns (see `MessageBus.exportStateView`).
 * @throws ConfigError (exit 2) saying how much the snapshot needs and how much can be spared.
 */
export function checkBusStateFits(c: BusStateCount, allowance = memoryBudget().bytes * BUS_SHARE): void {
  const need = SNAPSHOT_BYTES_PER_MESSAGE * c.messages;
  if (need <= allowance) return;
  throw new ConfigError(
    `the ${c.messages} messages in flight at tick ${c.tick} need about ${formatBytes(need)} to snapshot; only ${formatBytes(allowance)} of memory can be spared`,
    { hint: 'run fewer agents, a sparser network, a lower spreading probability or fewer ticks' },
  );
}
