import { AgentSorter } from '../clock/index.ts';
import { unzeroed } from '../core/index.ts';
import { DeliveryBatch } from './delivery-batch.ts';
import { Inbox } from './inbox.ts';
import { StringCodes } from './string-codes.ts';

/**
 * The delivery side of the {@link MessageBus}: the released batch indexed by recipient
 * (each agent's rows contiguous in `order`), inboxes carried over to the next release when
 * their agent did not act, and a few emptied batches kept for reuse. Nothing here
 * allocates per message; the arrays grow to the largest release and stay.
 */
export class ReleasedInboxes {
  /** Population size. */
  readonly size: number;
  protected readonly codes = new StringCodes();
  /** Emptied batches kept for reuse, so a run does not regrow its delivery arrays every tick. */
  protected readonly spare: DeliveryBatch[] = [];
  protected current: DeliveryBatch;
  protected order = new Int32Array(64);
  protected readonly inboxStart: Int32Array;
  protected readonly inboxCount: Int32Array;
  protected touched = new Int32Array(64);
  protected touchedCount = 0;
  protected releasedTick = 0;
  protected readonly view: Inbox;
  /** Sorts the recipients of a release in time proportional to their number. */
  private readonly sorter = new AgentSorter();

  constructor(size: number) {
    this.size = size;
    this.inboxStart = new Int32Array(size);
    this.inboxCount = new Int32Array(size);
    this.current = this.fresh(0);
    this.view = new Inbox({
      messageAtRow: (row) => this.current.message(this.current.msg[row]),
      fromAtRow: (row) => this.current.from[this.current.msg[row]],
      kindAtRow: (row) => this.codes.string(this.current.kind[this.current.msg[row]]),
      itemAtRow: (row) => {
        const c = this.current.item[this.current.msg[row]];
        return c < 0 ? undefined : this.codes.string(c);
      },
    });
  }

  /** An empty batch due at `deliverAt`, reused when one is spare. */
  protected fresh(deliverAt: number): DeliveryBatch {
    return this.spare.pop()?.reset(deliverAt) ?? new DeliveryBatch(deliverAt, this.codes);
  }

  /** Keeps an emptied batch for reuse (a few at most). */
  protected recycle(batch: DeliveryBatch): void {
    if (this.spare.length < 4) this.spare.push(batch.reset(0));
  }

  /** Deliveries released but not yet taken. */
  protected undelivered(): number {
    let n = 0;
    for (let k = 0; k < this.touchedCount; k++) n += this.inboxCount[this.touched[k]];
    return n;
  }

  /** Moves the inboxes not taken since the last release into a new batch (or none). */
  protected carryOver(tick: number): DeliveryBatch | undefined {
    let carried: DeliveryBatch | undefined;
    let remap: Map<number, number> | undefined;
    const current = this.current;
    for (let k = 0; k < this.touchedCount; k++) {
      const i = this.touched[k];
      const n = this.inboxCount[i];
      if (n === 0) continue;
      carried ??= this.fresh(tick);
      remap ??= new Map<number, number>();
      for (let r = 0; r < n; r++) {
        const m = current.msg[this.order[this.inboxStart[i] + r]];
        let idx = remap.get(m);
        if (idx === undefined) {
          idx = carried.copyMessage(current, m);
          remap.set(m, idx);
        }
        carried.add(i, idx);
      }
    }
    for (let k = 0; k < this.touchedCount; k++) this.inboxCount[this.touched[k]] = 0;
    this.touchedCount = 0;
    return carried;
  }

  /** Indexes `batch` by recipient: counts, ascending recipients, and rows grouped per agent. */
  protected index(batch: DeliveryBatch): void {
    const n = batch.length;
    const count = this.inboxCount;
    // written before read: unzeroed, and grown 2-fold (not to each new largest release)
    const recipients = Math.min(n, this.size);
    if (this.touched.length < recipients)
      this.touched = unzeroed(Int32Array, Math.min(Math.max(recipients, this.touched.length * 2), this.size));
    if (this.order.length < n) this.order = unzeroed(Int32Array, Math.max(n, this.order.length * 2));
    let t = 0;
    for (let r = 0; r < n; r++) {
      const to = batch.to[r];
      if (count[to] === 0) this.touched[t++] = to;
      count[to]++;
    }
    this.touchedCount = t;
    const touched = this.touched;
    touched.set(this.sorter.sorted(touched.subarray(0, t), this.size));
    let offset = 0;
    for (let k = 0; k < t; k++) {
      const i = touched[k];
      this.inboxStart[i] = offset;
      offset += count[i];
      count[i] = 0;
    }
    for (let r = 0; r < n; r++) {
      const to = batch.to[r];
      this.order[this.inboxStart[to] + count[to]++] = r;
    }
  }

  /** Messages waiting per agent this tick (live view, do not modify). */
  inboxCounts(): Int32Array {
    return this.inboxCount;
  }

  /** True if agent `i` has messages this tick. */
  hasInbox(i: number): boolean {
    return this.touchedCount !== 0 && this.inboxCount[i] > 0;
  }

  /** Agents with messages this tick, ascending (a live view until the next release). */
  recipients(): Int32Array {
    return this.touched.subarray(0, this.touchedCount);
  }

  /** An empty inbox view (for commits of asynchronous decisions). */
  emptyInbox(): Inbox {
    return this.view.aim(-1, this.order, 0, 0);
  }
}
