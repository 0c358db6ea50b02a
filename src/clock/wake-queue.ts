/**
 * The agents that have a wake scheduled, ordered by wake time (ties: the lower agent index
 * first, so the order is total and any correct priority queue pops the same sequence): the
 * indexed priority queue of Gibson & Bruck's next-reaction method. Any agent can be
 * inserted, re-keyed or removed.
 *
 * A calendar queue (Brown, Comm. ACM 31:1220, 1988), not a binary heap: time is cut into
 * buckets of width `w`, bucket q (mod B) holds the wakes in [qw, (q + 1)w) of every "year" of
 * B buckets as an intrusive list, and the earliest wake is the least of the current bucket's
 * wakes of the current year. With B about the number of agents and `w` a few mean gaps
 * between wakes, an insert, re-key or removal is O(1) and finding the earliest scans a few
 * entries, where a heap of 10^5 agents sifts through 8 levels of memory the processor's cache
 * does not hold. B and `w` follow the population and its total rate (the queue is rebuilt when
 * either moves by a factor of 4); they change only the cost, never the order. Hand-written
 * over typed arrays because a continuous-time run spends its event loop here; what is kept
 * per agent sits side by side, so a wake of an agent whose data is not in cache misses it
 * once per array, not once per field.
 */
export class WakeQueue {
  /** Per agent i: at 3i its wake time, at 3i + 1 its rate, at 3i + 2 its absolute bucket. */
  private readonly slot: Float64Array;
  /** Per agent i: at 4i its bucket (mod B) or -1, at 4i + 1 the next and 4i + 2 the previous agent in it, at 4i + 3 its draw count. */
  private readonly cell: Int32Array;
  private head = new Int32Array(0);
  private mask = -1;
  private width = 1;
  /** The absolute bucket that the search for the earliest wake starts from: no wake lies before it. */
  private current = 0;
  private n = 0;
  /** The sum of the scheduled rates (tunes the bucket width only). */
  private totalRate = 0;
  /** The earliest agent, or -1 when it must be searched for. */
  private first = -1;
  /** Changes until the bucket width is next compared with the total rate. */
  private untilTune = 0;

  constructor(readonly capacity: number) {
    this.slot = new Float64Array(3 * capacity);
    this.cell = new Int32Array(4 * capacity);
    for (let i = 0; i < capacity; i++) this.cell[4 * i] = -1;
    this.rebuild(16, 1);
  }

  /** Number of agents scheduled. */
  get size(): number {
    return this.n;
  }

  /** True if agent `i` has a wake scheduled. */
  has(i: number): boolean {
    return this.cell[4 * i] >= 0;
  }

  /** Agent `i`'s wake time (0 when it has none). */
  time(i: number): number {
    return this.cell[4 * i] < 0 ? 0 : this.slot[3 * i];
  }

  /** The rate agent `i`'s wake was drawn for (0 when it has none). */
  rate(i: number): number {
    return this.cell[4 * i] < 0 ? 0 : this.slot[3 * i + 1];
  }

  /** Counts one more waiting time drawn for agent `i`; returns the count before. */
  nextDraw(i: number): number {
    return this.cell[4 * i + 3]++;
  }

  /** Agent `i`'s draw count. */
  draws(i: number): number {
    return this.cell[4 * i + 3];
  }

  /** Sets agent `i`'s draw count (restores). */
  setDraws(i: number, count: number): void {
    this.cell[4 * i + 3] = count;
  }

  /** The agent with the earliest wake, or -1. */
  top(): number {
    if (this.first < 0 && this.n > 0) this.first = this.search();
    return this.first;
  }

  /** The earliest wake time (+∞ when empty). */
  topTime(): number {
    const a = this.top();
    return a < 0 ? Number.POSITIVE_INFINITY : this.slot[3 * a];
  }

  /** Schedules agent `i` at `time` for `rate`, or moves its wake there. */
  set(i: number, time: number, rate = 1): void {
    const cell = this.cell;
    if (cell[4 * i] >= 0) {
      this.unlink(i);
      this.totalRate -= this.slot[3 * i + 1];
      if (i === this.first) this.first = -1;
    } else this.n++;
    this.totalRate += rate;
    this.slot[3 * i] = time;
    this.slot[3 * i + 1] = rate;
    this.link(i);
    const f = this.first;
    if (f >= 0 && (time < this.slot[3 * f] || (time === this.slot[3 * f] && i < f))) this.first = i;
    this.retune();
  }

  /** Removes agent `i`'s wake (nothing if it has none). */
  remove(i: number): void {
    if (this.cell[4 * i] < 0) return;
    this.unlink(i);
    this.cell[4 * i] = -1;
    this.n--;
    this.totalRate = this.n === 0 ? 0 : this.totalRate - this.slot[3 * i + 1];
    if (i === this.first) this.first = -1;
    this.retune();
  }

  /** Empties the queue (draw counts stay). */
  clear(): void {
    for (let i = 0; i < this.capacity; i++) this.cell[4 * i] = -1;
    this.head.fill(-1);
    this.n = 0;
    this.totalRate = 0;
    this.first = -1;
  }

  /** Puts agent `i` (its time set) at the front of its bucket's list. */
  private link(i: number): void {
    const cell = this.cell;
    const q = Math.floor(this.slot[3 * i] / this.width);
    this.slot[3 * i + 2] = q;
    if (q < this.current) this.current = q;
    const b = q & this.mask;
    const h = this.head[b];
    cell[4 * i] = b;
    cell[4 * i + 1] = h;
    cell[4 * i + 2] = -1;
    if (h >= 0) cell[4 * h + 2] = i;
    this.head[b] = i;
  }

  /** Takes agent `i` out of its bucket's list (its bucket entry is left to the caller). */
  private unlink(i: number): void {
    const cell = this.cell;
    const next = cell[4 * i + 1];
    const prev = cell[4 * i + 2];
    if (prev >= 0) cell[4 * prev + 1] = next;
    else this.head[cell[4 * i]] = next;
    if (next >= 0) cell[4 * next + 2] = prev;
  }

  /** The earliest (time, agent): the least entry of this year's part of the first bucket that has one. */
  private search(): number {
    const { slot, cell, head, mask } = this;
    for (let q = this.current, end = this.current + mask + 1; q < end; q++) {
      let best = -1;
      let bt = 0;
      for (let a = head[q & mask]; a >= 0; a = cell[4 * a + 1]) {
        if (slot[3 * a + 2] !== q) continue;
        const t = slot[3 * a];
        if (best < 0 || t < bt || (t === bt && a < best)) {
          best = a;
          bt = t;
        }
      }
      if (best >= 0) {
        this.current = q;
        return best;
      }
    }
    return this.scanAll();
  }

  /** The earliest entry by a scan of every bucket (a year without a wake: sparse, far-off wakes). */
  private scanAll(): number {
    const { slot, cell, head } = this;
    let best = -1;
    let bt = 0;
    for (let b = 0; b < head.length; b++)
      for (let a = head[b]; a >= 0; a = cell[4 * a + 1]) {
        const t = slot[3 * a];
        if (best < 0 || t < bt || (t === bt && a < best)) {
          best = a;
          bt = t;
        }
      }
    this.current = slot[3 * best + 2];
    return best;
  }

  /** Rebuilds with other buckets when the population or its total rate has moved too far from them. */
  private retune(): void {
    const buckets = this.mask + 1;
    const n = this.n;
    const sized = n <= 4 * buckets && (n >= buckets / 4 || buckets <= 16);
    // the width is compared every 64 changes: the total rate moves slowly between
    if (sized && --this.untilTune > 0) return;
    this.untilTune = 64;
    const width = n > 0 && this.totalRate > 0 ? 2 / this.totalRate : this.width;
    if (sized && width <= 4 * this.width && 4 * width >= this.width) return;
    this.rebuild(Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(n, 1)))), width);
  }

  private rebuild(buckets: number, width: number): void {
    const scheduled: number[] = [];
    for (let b = 0; b < this.head.length; b++)
      for (let a = this.head[b]; a >= 0; a = this.cell[4 * a + 1]) scheduled.push(a);
    this.head = new Int32Array(buckets).fill(-1);
    this.mask = buckets - 1;
    this.width = width;
    this.current = Number.POSITIVE_INFINITY;
    for (const a of scheduled) this.link(a);
    if (scheduled.length === 0) this.current = 0;
  }
}
