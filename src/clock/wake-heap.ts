/**
 * The agents that have a wake scheduled, as an indexed 4-ary min-heap keyed by wake time
 * (ties: the lower agent index first, so the order is total and any correct priority queue
 * pops the same sequence). Any agent can be inserted, re-keyed or removed in O(log n): the
 * indexed priority queue of Gibson & Bruck's next-reaction method. Hand-written over typed
 * arrays because a continuous-time run spends its event loop here: the keys sit in heap
 * order beside the agents, four children per node halve the depth, and no object is made
 * per wake.
 */
export class WakeHeap {
  /** Agent at each heap position. */
  private readonly agent: Int32Array;
  /** Wake time at each heap position. */
  private readonly key: Float64Array;
  /** Heap position of each agent, or -1. */
  private readonly pos: Int32Array;
  private n = 0;

  constructor(readonly capacity: number) {
    this.agent = new Int32Array(capacity);
    this.key = new Float64Array(capacity);
    this.pos = new Int32Array(capacity).fill(-1);
  }

  /** Number of agents scheduled. */
  get size(): number {
    return this.n;
  }

  /** True if agent `i` has a wake scheduled. */
  has(i: number): boolean {
    return this.pos[i] >= 0;
  }

  /** Agent `i`'s wake time (0 when it has none). */
  time(i: number): number {
    const p = this.pos[i];
    return p < 0 ? 0 : this.key[p];
  }

  /** The agent with the earliest wake, or -1. */
  top(): number {
    return this.n > 0 ? this.agent[0] : -1;
  }

  /** The earliest wake time (+∞ when empty). */
  topTime(): number {
    return this.n > 0 ? this.key[0] : Number.POSITIVE_INFINITY;
  }

  /** Schedules agent `i` at `time`, or moves its wake there. */
  set(i: number, time: number): void {
    let p = this.pos[i];
    if (p < 0) {
      p = this.n++;
      this.agent[p] = i;
      this.key[p] = time;
      this.pos[i] = p;
      this.up(p);
      return;
    }
    const old = this.key[p];
    this.key[p] = time;
    if (time < old) this.up(p);
    else this.down(p);
  }

  /** Removes agent `i`'s wake (nothing if it has none). */
  remove(i: number): void {
    const p = this.pos[i];
    if (p < 0) return;
    this.pos[i] = -1;
    const last = --this.n;
    if (p === last) return;
    const moved = this.agent[last];
    this.agent[p] = moved;
    this.key[p] = this.key[last];
    this.pos[moved] = p;
    this.up(p);
    this.down(this.pos[moved]);
  }

  /** Empties the heap. */
  clear(): void {
    for (let p = 0; p < this.n; p++) this.pos[this.agent[p]] = -1;
    this.n = 0;
  }

  private up(p: number): void {
    const { agent, key, pos } = this;
    const a = agent[p];
    const t = key[p];
    while (p > 0) {
      const parent = (p - 1) >> 2;
      const tp = key[parent];
      if (tp < t || (tp === t && agent[parent] < a)) break;
      agent[p] = agent[parent];
      key[p] = tp;
      pos[agent[p]] = p;
      p = parent;
    }
    agent[p] = a;
    key[p] = t;
    pos[a] = p;
  }

  private down(p: number): void {
    const { agent, key, pos } = this;
    const n = this.n;
    const a = agent[p];
    const t = key[p];
    for (;;) {
      const first = 4 * p + 1;
      if (first >= n) break;
      let best = first;
      let bt = key[first];
      const end = Math.min(first + 4, n);
      for (let c = first + 1; c < end; c++) {
        const ct = key[c];
        if (ct < bt || (ct === bt && agent[c] < agent[best])) {
          best = c;
          bt = ct;
        }
      }
      if (t < bt || (t === bt && a < agent[best])) break;
      agent[p] = agent[best];
      key[p] = bt;
      pos[agent[p]] = p;
      p = best;
    }
    agent[p] = a;
    key[p] = t;
    pos[a] = p;
  }
}
