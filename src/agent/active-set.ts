/**
 * The agents in an `active` state, kept both as a flag per agent and as an unordered member
 * list (swap-remove), so that the engine finds them in time proportional to their number,
 * not to the population. Shared by both executors.
 */
export class ActiveSet {
  /** 1 per agent in an active state (live view). */
  readonly flag: Uint8Array;
  private readonly list: Int32Array;
  private readonly pos: Int32Array;
  private n = 0;

  constructor(readonly size: number) {
    this.flag = new Uint8Array(size);
    this.list = new Int32Array(size);
    this.pos = new Int32Array(size);
  }

  /** Number of active agents. */
  get count(): number {
    return this.n;
  }

  /** Marks agent `i` active (`a` = 1) or not (0). */
  set(i: number, a: number): void {
    if (a === this.flag[i]) return;
    this.flag[i] = a;
    if (a === 1) {
      this.pos[i] = this.n;
      this.list[this.n++] = i;
      return;
    }
    const p = this.pos[i];
    const last = this.list[--this.n];
    this.list[p] = last;
    this.pos[last] = p;
  }

  /** Marks every agent active. */
  fillAll(): void {
    this.flag.fill(1);
    for (let i = 0; i < this.size; i++) {
      this.list[i] = i;
      this.pos[i] = i;
    }
    this.n = this.size;
  }

  /** Marks every agent inactive. */
  clear(): void {
    this.flag.fill(0);
    this.n = 0;
  }

  /** The active agents in no particular order (a live view: valid until the next change). */
  members(): Int32Array {
    return this.list.subarray(0, this.n);
  }
}
