import { type Json, unzeroed } from '../core/index.ts';
import type { Message, Route, VisibilityContext, VisibilityRule } from './message.ts';
import type { StringCodes } from './string-codes.ts';

/** Routes by code, as stored in {@link DeliveryBatch.route}. */
const ROUTES: readonly Route[] = ['direct', 'neighbours', 'channel', 'broadcast', 'encounter'];
const ROUTE_CODE: Readonly<Record<Route, number>> = {
  direct: 0,
  neighbours: 1,
  channel: 2,
  broadcast: 3,
  encounter: 4,
};

/**
 * Deliveries due at one tick, stored as typed columns: one row per message (id, sender,
 * kind, item, route, channel, times; strings as codes of the bus's {@link StringCodes}) and
 * one row per delivery (recipient, message index). Sending, routing and reading an inbox
 * allocate nothing per message; a {@link Message} object is built only when someone asks
 * for one ({@link DeliveryBatch.message}), and kept, so a message is one object per batch.
 * Payloads, rare on the hot path, sit in a map by message index.
 */
export class DeliveryBatch {
  /** Number of messages. */
  count = 0;
  id = new Float64Array(16);
  from = new Int32Array(16);
  kind = new Int32Array(16);
  /** Item code, -1 for none. */
  item = new Int32Array(16);
  route = new Uint8Array(16);
  /** Channel code, -1 for none. */
  channel = new Int32Array(16);
  sentAt = new Int32Array(16);
  at = new Int32Array(16);
  private payloads = new Map<number, Json>();
  private objects = new Map<number, Message>();
  /** Delivery rows: recipient and message index. */
  to = new Int32Array(64);
  msg = new Int32Array(64);
  /** Number of delivery rows. */
  length = 0;

  /**
   * @param deliverAt the tick these deliveries become visible.
   * @param codes the bus's string codes (kinds, items, channels).
   */
  constructor(
    public deliverAt: number,
    readonly codes: StringCodes,
  ) {}

  /** Empties the batch for reuse at `deliverAt` (keeps its arrays). */
  reset(deliverAt: number): this {
    this.deliverAt = deliverAt;
    this.count = 0;
    this.length = 0;
    if (this.payloads.size > 0) this.payloads.clear();
    if (this.objects.size > 0) this.objects.clear();
    return this;
  }

  /** Adds a message from its fields; returns its index in this batch. */
  addFields(
    id: number,
    from: number,
    route: Route,
    channel: string | undefined,
    kind: string,
    item: string | undefined,
    payload: Json | undefined,
    sentAt: number,
    deliverAt: number,
  ): number {
    if (this.count === this.id.length) this.growMessages();
    const m = this.count++;
    const codes = this.codes;
    this.id[m] = id;
    this.from[m] = from;
    this.kind[m] = codes.code(kind);
    this.item[m] = item === undefined ? -1 : codes.code(item);
    this.route[m] = ROUTE_CODE[route];
    this.channel[m] = channel === undefined ? -1 : codes.code(channel);
    this.sentAt[m] = sentAt;
    this.at[m] = deliverAt;
    if (payload !== undefined) this.payloads.set(m, payload);
    return m;
  }

  /** Adds a message object (kept as is, so readers get this very object); returns its index. */
  addMessage(message: Message): number {
    const m = message;
    const k = this.addFields(
      m.id,
      m.from,
      m.route,
      m.channel,
      m.kind,
      m.item,
      m.payload,
      m.sentAt,
      m.deliverAt,
    );
    this.objects.set(k, message);
    return k;
  }

  /** Copies message `m` of `other` (a batch of the same bus) into this batch; returns its index here. */
  copyMessage(other: DeliveryBatch, m: number): number {
    if (this.count === this.id.length) this.growMessages();
    const k = this.count++;
    this.id[k] = other.id[m];
    this.from[k] = other.from[m];
    this.kind[k] = other.kind[m];
    this.item[k] = other.item[m];
    this.route[k] = other.route[m];
    this.channel[k] = other.channel[m];
    this.sentAt[k] = other.sentAt[m];
    this.at[k] = other.at[m];
    if (other.payloads.size > 0) {
      const payload = other.payloads.get(m);
      if (payload !== undefined) this.payloads.set(k, payload);
    }
    if (other.objects.size > 0) {
      const obj = other.objects.get(m);
      if (obj) this.objects.set(k, obj);
    }
    return k;
  }

  /** Message `m` as an object (built once, then the same object). */
  message(m: number): Message {
    let obj = this.objects.get(m);
    if (obj) return obj;
    const codes = this.codes;
    obj = {
      id: this.id[m],
      from: this.from[m],
      route: ROUTES[this.route[m]],
      channel: this.channel[m] < 0 ? undefined : codes.string(this.channel[m]),
      kind: codes.string(this.kind[m]),
      item: this.item[m] < 0 ? undefined : codes.string(this.item[m]),
      payload: this.payloads.get(m),
      sentAt: this.sentAt[m],
      deliverAt: this.at[m],
    };
    this.objects.set(m, obj);
    return obj;
  }

  /** Every message as an object, in index order (snapshots). */
  messages(): Message[] {
    const out = new Array<Message>(this.count);
    for (let m = 0; m < this.count; m++) out[m] = this.message(m);
    return out;
  }

  /** Adds one delivery row. */
  add(to: number, msgIndex: number): void {
    if (this.length === this.to.length) this.growRows();
    this.to[this.length] = to;
    this.msg[this.length] = msgIndex;
    this.length++;
  }

  /** Appends every message and delivery row of `other` (same string codes). */
  append(other: DeliveryBatch): this {
    const offset = this.count;
    for (let m = 0; m < other.count; m++) this.copyMessage(other, m);
    for (let r = 0; r < other.length; r++) this.add(other.to[r], other.msg[r] + offset);
    return this;
  }

  /**
   * Applies a visibility rule to every delivery row in place: a withheld row is dropped, a
   * redacted copy becomes a message of its own. (The place to record withheld deliveries.)
   */
  filter(
    rule: VisibilityRule,
    ctx: VisibilityContext,
    withheld?: { add(message: Message, to: number): void },
  ): void {
    let w = 0;
    for (let r = 0; r < this.length; r++) {
      const m = this.message(this.msg[r]);
      const seen = rule(m, this.to[r], ctx);
      if (seen === null) {
        withheld?.add(m, this.to[r]);
        continue;
      }
      this.to[w] = this.to[r];
      this.msg[w] = seen === m ? this.msg[r] : this.addMessage(seen);
      w++;
    }
    this.length = w;
  }

  private growMessages(): void {
    const cap = grownCapacity(this.id.length);
    this.id = grown(this.id, unzeroed(Float64Array, cap));
    this.from = grown(this.from, unzeroed(Int32Array, cap));
    this.kind = grown(this.kind, unzeroed(Int32Array, cap));
    this.item = grown(this.item, unzeroed(Int32Array, cap));
    this.route = grown(this.route, unzeroed(Uint8Array, cap));
    this.channel = grown(this.channel, unzeroed(Int32Array, cap));
    this.sentAt = grown(this.sentAt, unzeroed(Int32Array, cap));
    this.at = grown(this.at, unzeroed(Int32Array, cap));
  }

  private growRows(): void {
    const cap = grownCapacity(this.to.length);
    this.to = grown(this.to, unzeroed(Int32Array, cap));
    this.msg = grown(this.msg, unzeroed(Int32Array, cap));
  }
}

/** Capacity up to which the arrays grow 8-fold, beyond it 2-fold (2^20 rows: ~35 MB of message columns). */
const FAST_GROWTH_UP_TO = 1 << 20;

/**
 * The next capacity of arrays of `cap` rows. Each array a batch grows out of was written in
 * full and is then garbage: a cost in first touches of fresh pages (~13 us per 4 KiB on the
 * 2-vCPU VM), while capacity not yet written costs none (the arrays are {@link unzeroed}: a
 * zeroed one may be memset in full by the C allocator). So the arrays grow 8-fold up to 2^20 rows (at 10^5 agents: ~550 fewer page faults
 * than doubling), and double beyond, to keep the memory reserved within 2x of the rows.
 */
function grownCapacity(cap: number): number {
  return Math.min(cap * 8, Math.max(cap * 2, FAST_GROWTH_UP_TO));
}

function grown<T extends Float64Array | Int32Array | Uint8Array>(old: T, next: T): T {
  next.set(old);
  return next;
}
