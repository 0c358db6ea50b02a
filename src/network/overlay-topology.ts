import type { Rng } from '../core/index.ts';
import { RunError } from '../core/index.ts';
import type { Topology } from './topology.ts';

/** One change to a network: add or remove an undirected edge. */
export type EdgeEdit = ['add' | 'remove', number, number];

/**
 * A network changed by interventions: the base topology plus, for the agents whose
 * neighbourhood changed, their own sorted neighbour list. Unchanged agents cost nothing,
 * so a million-agent network can be edited without copying it. The edit list is plain
 * JSON, for snapshots.
 */
export class OverlayTopology implements Topology {
  readonly kind: string;
  readonly size: number;
  edgeCount: number;
  private readonly changed = new Map<number, Int32Array>();
  private readonly history: EdgeEdit[] = [];

  constructor(readonly base: Topology) {
    this.kind = `${base.kind}+edits`;
    this.size = base.size;
    this.edgeCount = base.edgeCount;
  }

  private list(i: number): Int32Array {
    const own = this.changed.get(i);
    if (own) return own;
    const d = this.base.degree(i);
    const out = new Int32Array(d);
    for (let k = 0; k < d; k++) out[k] = this.base.neighbour(i, k);
    return out;
  }

  private check(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.size)
      throw new RunError(`network edit: ${i} is not an agent (population ${this.size})`);
  }

  /** Applies one edit (no-op if the edge already is / is not there). */
  apply([op, i, j]: EdgeEdit): void {
    this.check(i);
    this.check(j);
    if (i === j) throw new RunError(`network edit: ${op} of a self loop on ${i}`);
    if ((op === 'add') === this.hasEdge(i, j)) return;
    for (const [a, b] of [
      [i, j],
      [j, i],
    ]) {
      const cur = Array.from(this.list(a));
      const next = op === 'add' ? [...cur, b].sort((x, y) => x - y) : cur.filter((x) => x !== b);
      this.changed.set(a, Int32Array.from(next));
    }
    this.edgeCount += op === 'add' ? 1 : -1;
    this.history.push([op, i, j]);
  }

  /** Removes every edge of agent `i`. */
  isolate(i: number): void {
    this.check(i);
    for (const j of Array.from(this.list(i))) this.apply(['remove', i, j]);
  }

  /** Every edit applied so far, in order. */
  edits(): EdgeEdit[] {
    return this.history.map((e) => [...e] as EdgeEdit);
  }

  degree(i: number): number {
    const own = this.changed.get(i);
    return own ? own.length : this.base.degree(i);
  }

  neighbour(i: number, k: number): number {
    const own = this.changed.get(i);
    return own ? own[k] : this.base.neighbour(i, k);
  }

  randomNeighbour(i: number, rng: Rng): number {
    const d = this.degree(i);
    return d === 0 ? -1 : this.neighbour(i, rng.int(d));
  }

  forEachNeighbour(i: number, fn: (j: number) => void): void {
    const d = this.degree(i);
    for (let k = 0; k < d; k++) fn(this.neighbour(i, k));
  }

  hasEdge(i: number, j: number): boolean {
    const own = this.changed.get(i);
    if (!own) return this.base.hasEdge(i, j);
    return own.includes(j);
  }

  get byteLength(): number {
    let bytes = this.base.byteLength;
    for (const l of this.changed.values()) bytes += l.byteLength;
    return bytes;
  }
}
