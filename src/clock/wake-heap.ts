/**
 * The agents that have a wake scheduled, as an indexed binary min-heap keyed by wake time
 * (ties: the lower agent index first, so the order is total and every correct heap pops the
 * same sequence). Any agent can be inserted, re-keyed or removed in O(log n): the indexed
 * priority queue of Gibson & Bruck's next-reaction method. Typed arrays, no object per wake:
 * hand-written because the event loop of a continuous-time run spends its time here, and a
 * heap of event objects costs an allocation and pointer chasing per wake.
 */
export class WakeHeap {
  /** Wake time of each agent (0 for an agent without one). */
  readonly time: Float64Array;
  private readonly heap: Int32Array;
  /** Position of each agent in `heap`, or -1. */
  private readonly pos: Int32Array;
  private n = 0;

  constructor(readonly capacity: number) {
    this.time = new Float64Array(capacity);
    this.heap = new Int32Array(capacity);
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

  /** The agent with the earliest wake, or -1. */
  top(): number {
    return this.n > 0 ? this.heap[0] : -1;
  }

  /** Schedules agent `i` at `time`, or moves its wake there. */
  set(i: number, time: number): void {
    const p = this.pos[i];
    const old = this.time[i];
    this.time[i] = time;
    if (p < 0) {
      this.heap[this.n] = i;
      this.pos[i] = this.n;
      this.up(this.n++);
    } else if (time < old) this.up(p);
    else this.down(p);
  }

  /** Removes agent `i`'s wake (nothing if it has none). */
  remove(i: number): void {
    const p = this.pos[i];
    if (p < 0) return;
    this.pos[i] = -1;
    this.time[i] = 0;
    const last = this.heap[--this.n];
    if (p === this.n) return;
    this.heap[p] = last;
    this.pos[last] = p;
    this.up(p);
    this.down(this.pos[last]);
  }

  /** Removes and returns the agent with the earliest wake (-1 when empty). */
  pop(): number {
    if (this.n === 0) return -1;
    const top = this.heap[0];
    this.remove(top);
    return top;
  }

  /** Empties the heap. */
  clear(): void {
    for (let k = 0; k < this.n; k++) {
      this.pos[this.heap[k]] = -1;
      this.time[this.heap[k]] = 0;
    }
    this.n = 0;
  }

  private less(a: number, b: number): boolean {
    const ta = this.time[a];
    const tb = this.time[b];
    return ta < tb || (ta === tb && a < b);
  }

  private up(p: number): void {
    const heap = this.heap;
    const item = heap[p];
    while (p > 0) {
      const parent = (p - 1) >> 1;
      const other = heap[parent];
      if (!this.less(item, other)) break;
      heap[p] = other;
      this.pos[other] = p;
      p = parent;
    }
    heap[p] = item;
    this.pos[item] = p;
  }

  private down(p: number): void {
    const heap = this.heap;
    const n = this.n;
    const item = heap[p];
    for (;;) {
      const l = 2 * p + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && this.less(heap[r], heap[l]) ? r : l;
      const other = heap[child];
      if (!this.less(other, item)) break;
      heap[p] = other;
      this.pos[other] = p;
      p = child;
    }
    heap[p] = item;
    this.pos[item] = p;
  }
}
