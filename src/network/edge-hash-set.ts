import { mix32 } from '../core/index.ts';

const EMPTY = -1;

/**
 * A set of undirected edges as an open-addressing hash table in one Int32Array (each slot
 * holds the pair min, max side by side, so a probe touches one cache line; linear probing).
 * Internal to the network module: it gives O(1) duplicate checks without a JS object per
 * edge. The table never resizes: size it for the most edges it will hold.
 */
export class EdgeHashSet {
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Number of edges in the set. */
  count = 0;

  /** @param maxEdges The most edges the set will hold. */
  constructor(maxEdges: number) {
    let cap = 16;
    while (cap < maxEdges * 1.5) cap *= 2;
    this.slots = new Int32Array(2 * cap).fill(EMPTY);
    this.mask = cap - 1;
  }

  /** True if the edge {u, v} is in the set. */
  has(u: number, v: number): boolean {
    return this.find(u, v) >= 0;
  }

  /** Adds {u, v}; returns false if it was already there. */
  add(u: number, v: number): boolean {
    const a = Math.min(u, v);
    const b = Math.max(u, v);
    const slots = this.slots;
    let s = home(a, b) & this.mask;
    while (slots[2 * s] !== EMPTY) {
      if (slots[2 * s] === a && slots[2 * s + 1] === b) return false;
      s = (s + 1) & this.mask;
    }
    slots[2 * s] = a;
    slots[2 * s + 1] = b;
    this.count++;
    return true;
  }

  /** The slot holding {u, v}, or -1. */
  private find(u: number, v: number): number {
    const a = Math.min(u, v);
    const b = Math.max(u, v);
    const slots = this.slots;
    let s = home(a, b) & this.mask;
    while (slots[2 * s] !== EMPTY) {
      if (slots[2 * s] === a && slots[2 * s + 1] === b) return s;
      s = (s + 1) & this.mask;
    }
    return -1;
  }
}

function home(a: number, b: number): number {
  return mix32(Math.imul(a, 0x9e3779b1) ^ mix32(b));
}
