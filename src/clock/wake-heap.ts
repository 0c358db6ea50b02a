/**
 * The agents that have a wake scheduled, as an indexed 4-ary min-heap keyed by wake time
 * (ties: the lower agent index first, so the order is total and any correct priority queue
 * pops the same sequence). Any agent can be inserted, re-keyed or removed in O(log n): the
 * indexed priority queue of Gibson & Bruck's next-reaction method. Hand-written over typed
 * arrays because a continuous-time run spends its event loop here: the keys sit in heap
 * order beside the agents and the rates their wakes were drawn for, four children per node
 * halve the depth, and no object is made per wake. What is kept per agent (its heap
 * position and its owner's draw count) sits side by side in one array, so that a wake of an
 * agent whose data is not in the processor's cache misses it once, not once per array.
 */
export class WakeHeap {
  /** Agent at each heap position. */
  private readonly agent: Int32Array;
  /** Wake time at each heap position. */
  private readonly key: Float64Array;
  /** Rate at each heap position: the one its wake was drawn or rescaled for. */
  private readonly rates: Float64Array;
  /** Per agent i: at 2i its heap position (or -1), at 2i + 1 its draw count. */
  private readonly cell: Int32Array;
  private n = 0;

  constructor(readonly capacity: number) {
    this.agent = new Int32Array(capacity);
    this.key = new Float64Array(capacity);
    this.rates = new Float64Array(capacity);
    this.cell = new Int32Array(2 * capacity);
    for (let i = 0; i < capacity; i++) this.cell[2 * i] = -1;
  }

  /** Number of agents scheduled. */
  get size(): number {
    return this.n;
  }

  /** True if agent `i` has a wake scheduled. */
  has(i: number): boolean {
    return this.cell[2 * i] >= 0;
  }

  /** Agent `i`'s wake time (0 when it has none). */
  time(i: number): number {
    const p = this.cell[2 * i];
    return p < 0 ? 0 : this.key[p];
  }

  /** The rate agent `i`'s wake was drawn for (0 when it has none). */
  rate(i: number): number {
    const p = this.cell[2 * i];
    return p < 0 ? 0 : this.rates[p];
  }

  /** How many waiting times have been drawn for agent `i`; counts this one (returns the count before). */
  nextDraw(i: number): number {
    return this.cell[2 * i + 1]++;
  }

  /** Agent `i`'s draw count. */
  draws(i: number): number {
    return this.cell[2 * i + 1];
  }

  /** Sets agent `i`'s draw count (restores). */
  setDraws(i: number, count: number): void {
    this.cell[2 * i + 1] = count;
  }

  /** The agent with the earliest wake, or -1. */
  top(): number {
    return this.n > 0 ? this.agent[0] : -1;
  }

  /** The earliest wake time (+∞ when empty). */
  topTime(): number {
    return this.n > 0 ? this.key[0] : Number.POSITIVE_INFINITY;
  }

  /** Schedules agent `i` at `time` for `rate`, or moves its wake there. */
  set(i: number, time: number, rate = 1): void {
    let p = this.cell[2 * i];
    if (p < 0) {
      p = this.n++;
      this.agent[p] = i;
      this.key[p] = time;
      this.rates[p] = rate;
      this.cell[2 * i] = p;
      this.up(p);
      return;
    }
    const old = this.key[p];
    this.key[p] = time;
    this.rates[p] = rate;
    if (time < old) this.up(p);
    else this.down(p);
  }

  /** Removes agent `i`'s wake (nothing if it has none). */
  remove(i: number): void {
    const p = this.cell[2 * i];
    if (p < 0) return;
    this.cell[2 * i] = -1;
    const last = --this.n;
    if (p === last) return;
    const moved = this.agent[last];
    this.agent[p] = moved;
    this.key[p] = this.key[last];
    this.rates[p] = this.rates[last];
    this.cell[2 * moved] = p;
    this.up(p);
    this.down(this.cell[2 * moved]);
  }

  /** Empties the heap (draw counts stay). */
  clear(): void {
    for (let p = 0; p < this.n; p++) this.cell[2 * this.agent[p]] = -1;
    this.n = 0;
  }

  private up(p: number): void {
    const { agent, key, rates, cell } = this;
    const a = agent[p];
    const t = key[p];
    const r = rates[p];
    while (p > 0) {
      const parent = (p - 1) >> 2;
      const tp = key[parent];
      if (tp < t || (tp === t && agent[parent] < a)) break;
      agent[p] = agent[parent];
      key[p] = tp;
      rates[p] = rates[parent];
      cell[2 * agent[p]] = p;
      p = parent;
    }
    agent[p] = a;
    key[p] = t;
    rates[p] = r;
    cell[2 * a] = p;
  }

  private down(p: number): void {
    const { agent, key, rates, cell } = this;
    const n = this.n;
    const a = agent[p];
    const t = key[p];
    const r = rates[p];
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
      rates[p] = rates[best];
      cell[2 * agent[p]] = p;
      p = best;
    }
    agent[p] = a;
    key[p] = t;
    rates[p] = r;
    cell[2 * a] = p;
  }
}
