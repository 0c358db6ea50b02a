import type { StepContext, Topology, WorldView } from '../../src/index.ts';
import { SLOT } from './machine.ts';

/**
 * Running counts of the voter model, so that a tick's metrics and stop rule cost O(1)
 * instead of a scan and a sort of the population, and an agent's rate (its share of
 * disagreeing neighbours) costs O(1) instead of a pass over its neighbours. Voter opinions
 * and moves are 0 or 1, so the counts determine the moments, extremes and clusters exactly.
 * The typed arrays are hand-kept, as a plain event-driven program keeps them: no library
 * keeps counts in step with an executor's writes.
 *
 * The counts follow the policy's own writes ({@link VoterTally.write}) and are trusted only
 * while the executor's change mark equals the mark they expect: any write the policy did not
 * make (tick 0's init, an intervention, a restored snapshot) moves the mark past it, and the
 * next read counts again. The neighbour counts are trusted only on the network the world
 * built (an edited network is read directly). An executor without a change mark (XState)
 * counts at every read. Nothing here is in snapshots: a restored run starts by counting.
 */
export class VoterTally {
  /** Agents holding opinion 1, and holding neither 0 nor 1 (then nothing else is kept). */
  private ones = 0;
  private otherX = 0;
  /** Agents whose last move was 1, and neither 0 nor 1. */
  private movedOne = 0;
  private otherDx = 0;
  /** The change mark the counts agree with, or null before the first count. */
  private mark: number | null = null;
  /** Each agent's opinion (when 0 or 1) and its number of disagreeing neighbours. */
  private readonly opinion: Uint8Array;
  private readonly disc: Int32Array;

  /** `network`: the topology whose disagreeing neighbours to count (null: none). */
  constructor(private readonly network: Topology | null) {
    const n = network?.size ?? 0;
    this.opinion = new Uint8Array(n);
    this.disc = new Int32Array(n);
  }

  /**
   * Writes slot `k` (x or dx) of the stepped agent as `ctx.setSlot` does, and keeps the
   * counts and the expected change mark in step with it.
   */
  write(ctx: StepContext<unknown>, k: number, value: number): void {
    const from = ctx.slot(k);
    const to = value + 0;
    ctx.setSlot(k, to);
    if (from === to || this.mark === null) return;
    if (!isBinary(from) || !isBinary(to)) {
      this.mark = null; // counted again at the next read
      return;
    }
    this.mark = (this.mark + 1) | 0; // the executor's mark wraps the same way
    if (k !== SLOT.x) this.movedOne += to - from;
    else {
      this.ones += to - from;
      if (this.network) this.moved(ctx.agent, to);
    }
  }

  /** Agent `i` now holds `to` (it held the other opinion): its and its neighbours' counts. */
  private moved(i: number, to: number): void {
    const net = this.network!;
    const d = net.degree(i);
    const opinion = this.opinion;
    const disc = this.disc;
    for (let k = 0; k < d; k++) {
      const j = net.neighbour(i, k);
      disc[j] += opinion[j] === to ? -1 : 1;
    }
    disc[i] = d - disc[i];
    opinion[i] = to;
  }

  /**
   * The counts for the view's current state, counted afresh when they cannot be trusted;
   * null when some opinion or move is neither 0 nor 1 (the caller then scans).
   */
  read(view: WorldView): { ones: number; movedOne: number } | null {
    if (view.executor.changeCount === undefined) this.count(view, false);
    else this.refresh(view);
    if (this.otherX > 0 || this.otherDx > 0) return null;
    return { ones: this.ones, movedOne: this.movedOne };
  }

  /**
   * Agent `i`'s number of disagreeing neighbours on the view's network, or -1 when the
   * counts do not apply (no change mark, an edited network, an opinion neither 0 nor 1).
   */
  disagreeing(i: number, view: WorldView): number {
    if (view.network !== this.network || view.executor.changeCount === undefined) return -1;
    this.refresh(view);
    return this.otherX > 0 ? -1 : this.disc[i];
  }

  /** Counts again when the executor's change mark is not the one the counts agree with. */
  private refresh(view: WorldView): void {
    const mark = view.executor.changeCount!();
    if (mark === this.mark) return;
    this.count(view, true);
    this.mark = mark;
  }

  private count(view: WorldView, neighbours: boolean): void {
    const x = view.memoryColumn('x');
    const dx = view.memoryColumn('dx');
    let ones = 0;
    let otherX = 0;
    let movedOne = 0;
    let otherDx = 0;
    for (let i = 0; i < x.length; i++) {
      if (x[i] === 1) ones++;
      else if (x[i] !== 0) otherX++;
      if (dx[i] === 1) movedOne++;
      else if (dx[i] !== 0) otherDx++;
    }
    this.ones = ones;
    this.otherX = otherX;
    this.movedOne = movedOne;
    this.otherDx = otherDx;
    if (neighbours && this.network && otherX === 0) this.countNeighbours(x);
  }

  private countNeighbours(x: ArrayLike<number>): void {
    const net = this.network!;
    for (let i = 0; i < x.length; i++) this.opinion[i] = x[i];
    for (let i = 0; i < x.length; i++) {
      let disc = 0;
      for (let k = 0, d = net.degree(i); k < d; k++) if (this.opinion[net.neighbour(i, k)] !== x[i]) disc++;
      this.disc[i] = disc;
    }
  }
}

function isBinary(v: number): boolean {
  return v === 0 || v === 1;
}
