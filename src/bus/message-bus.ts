import { type Observable, Subject } from 'rxjs';
import {
  BASE64_CHUNK_CHARS,
  base64ToTyped,
  ConfigError,
  type Json,
  RunError,
  typedToBase64Chunks,
} from '../core/index.ts';
import type { Topology } from '../network/topology.ts';
import { DeliveryBatch } from './delivery-batch.ts';
import { Inbox } from './inbox.ts';
import type { Address, Message, OutgoingMessage, Route, Visibility, VisibilityRule } from './message.ts';
import { checkBusStateFits } from './state-budget.ts';
import { StringCodes } from './string-codes.ts';
import { VisibilityRules } from './visibility-rules.ts';

/** Options of a {@link MessageBus}. */
export interface BusOptions {
  /** Population size. */
  size: number;
  /** Network for `neighbours` addressing. */
  topology?: Topology;
  /** Default delivery latency in ticks (>= 1, default 1). */
  latency?: number;
  /** The world's visibility rule(s), applied to every delivery. */
  visibility?: Visibility;
}

/** What the bus reports to observers of {@link MessageBus.events$} (full logs, tools). */
export type BusEvent =
  | { type: 'sent'; tick: number; message: Message; recipients: number; to: Int32Array }
  | { type: 'withheld'; tick: number; message: Message; to: number[]; rule: string }
  | { type: 'observed'; tick: number; agent: number; messages: readonly Message[] }
  | { type: 'encounter'; tick: number; encounter: EncounterRecord };

/** One resolved encounter, as full logs record it (see docs/ENCOUNTERS.md). */
export interface EncounterRecord {
  /** The agent that answered. */
  responder: number;
  /** What the opener said (as sent; `route` is `encounter`). */
  said: Message;
  /** True if the visibility rule let the responder hear it. */
  heard: boolean;
  /** The responder's answer as sent, or null if it said nothing. */
  reply: Message | null;
  /** True if the opener heard the answer. */
  replyHeard: boolean;
  /** What the responder's own state did while answering (events, memory writes, messages sent). */
  answer: { events: string[]; memory: Record<string, Json>; sent: number[] } | null;
}

/**
 * The routed message bus. Sending expands the address into recipients at once (cost
 * proportional to the recipients, never to the population) into the batch due at
 * `tick + latency`. `release(tick)` indexes that batch by recipient; each agent then takes
 * its whole inbox in one step. Inboxes of agents that did not act carry over to the next
 * tick. Agents (or tools) that want a stream subscribe to {@link observe}.
 */
export class MessageBus {
  readonly size: number;
  readonly latency: number;
  private topology?: Topology;
  private readonly visibility?: VisibilityRule;
  private readonly rules: VisibilityRules;
  private readonly visibilityCtx: { network: Topology | undefined };
  /** Report every delivery a visibility rule withholds as a `withheld` event (full logs only). */
  reportWithheld = false;
  private readonly pending = new Map<number, DeliveryBatch>();
  private pendingRows = 0;
  private nextId = 0;
  private readonly channels = new Map<string, Int32Array>();
  private readonly codes = new StringCodes();
  /** Emptied batches kept for reuse, so a run does not regrow its delivery arrays every tick. */
  private readonly spare: DeliveryBatch[] = [];
  private current: DeliveryBatch;
  private lastBatch: DeliveryBatch;
  private lastIndex = 0;
  private order = new Int32Array(64);
  private readonly inboxStart: Int32Array;
  private readonly inboxCount: Int32Array;
  private touched = new Int32Array(64);
  private touchedCount = 0;
  private releasedTick = 0;
  private readonly view: Inbox;
  private readonly streams = new Map<number, Subject<readonly Message[]>>();
  private readonly events = new Subject<BusEvent>();
  /** Every send and every observed inbox, for full logs; costs nothing when unobserved. */
  readonly events$: Observable<BusEvent> = this.events.asObservable();

  constructor(opts: BusOptions) {
    this.size = opts.size;
    this.latency = opts.latency ?? 1;
    if (!Number.isInteger(this.latency) || this.latency < 1) {
      throw new ConfigError(`delivery latency must be an integer >= 1 tick, got ${opts.latency}`, {
        hint: 'latency 1 means simultaneous update: what is said at t is heard at t+1',
      });
    }
    this.topology = opts.topology;
    this.rules = new VisibilityRules(opts.visibility);
    this.visibility = this.rules.apply;
    this.visibilityCtx = { network: opts.topology };
    this.inboxStart = new Int32Array(opts.size);
    this.inboxCount = new Int32Array(opts.size);
    this.current = this.fresh(0);
    this.lastBatch = this.current;
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

  /** Replaces the network used for `neighbours` addressing (network interventions). */
  setTopology(topology: Topology): void {
    this.topology = topology;
    this.visibilityCtx.network = topology;
  }

  /** The name of the visibility rule that withholds `message` from `recipient` now, or null. */
  withholdingRule(message: Message, recipient: number): string | null {
    return this.rules.withholding(message, recipient, this.visibilityCtx);
  }

  /** Declares a channel and its members (agent indices). */
  defineChannel(name: string, members: readonly number[] | Int32Array): void {
    const sorted = Int32Array.from(members).sort();
    for (const m of sorted) this.checkAgent(m, `member of channel "${name}"`);
    this.channels.set(name, sorted);
  }

  /** Members of a channel, ascending. */
  channelMembers(name: string): Int32Array {
    const members = this.channels.get(name);
    if (!members)
      throw new RunError(`unknown channel "${name}"`, {
        hint: `declared channels: ${[...this.channels.keys()].join(', ') || 'none'}`,
      });
    return members;
  }

  /** Envelopes routed but not yet observed (pending plus current undelivered). */
  get pendingCount(): number {
    let inCurrent = 0;
    for (let k = 0; k < this.touchedCount; k++) inCurrent += this.inboxCount[this.touched[k]];
    return this.pendingRows + inCurrent;
  }

  /** Sends a message from `from` (-1 = the world) at `tick`; returns it. */
  send(from: number, tick: number, out: OutgoingMessage): Message {
    this.post(from, tick, out);
    return this.lastBatch.message(this.lastIndex);
  }

  /** {@link send} without building the message object: returns its id (the hot path). */
  post(from: number, tick: number, out: OutgoingMessage): number {
    const a = out.address;
    const route = routeOf(a);
    const channel = a.to === 'channel' ? a.channel : undefined;
    const batch = this.batchFor(tick, out.latency);
    const m = batch.addFields(
      this.nextId++,
      from,
      route,
      channel,
      out.kind,
      out.item,
      out.payload,
      tick,
      batch.deliverAt,
    );
    const before = batch.length;
    this.route(batch, m, from, a);
    return this.sent(batch, before, tick, m);
  }

  /** Sends a direct message to one agent without building an address (the hot path). */
  sendTo(from: number, tick: number, to: number, kind: string, item?: string, payload?: Json): Message {
    this.postTo(from, tick, to, kind, item, payload);
    return this.lastBatch.message(this.lastIndex);
  }

  /** {@link sendTo} without building the message object: returns its id. */
  postTo(from: number, tick: number, to: number, kind: string, item?: string, payload?: Json): number {
    this.checkAgent(to, 'recipient');
    const batch = this.batchFor(tick, undefined);
    const m = batch.addFields(
      this.nextId++,
      from,
      'direct',
      undefined,
      kind,
      item,
      payload,
      tick,
      batch.deliverAt,
    );
    const before = batch.length;
    batch.add(to, m);
    return this.sent(batch, before, tick, m);
  }

  /** An empty batch due at `deliverAt`, reused when one is spare. */
  private fresh(deliverAt: number): DeliveryBatch {
    return this.spare.pop()?.reset(deliverAt) ?? new DeliveryBatch(deliverAt, this.codes);
  }

  /** Keeps an emptied batch for reuse (a few at most). */
  private recycle(batch: DeliveryBatch): void {
    if (this.spare.length < 4) this.spare.push(batch.reset(0));
  }

  private batchFor(tick: number, latency: number | undefined): DeliveryBatch {
    const l = latency ?? this.latency;
    if (!Number.isInteger(l) || l < 1)
      throw new RunError(`message latency must be an integer >= 1, got ${l}`);
    const deliverAt = tick + l;
    let batch = this.pending.get(deliverAt);
    if (!batch) {
      batch = this.fresh(deliverAt);
      this.pending.set(deliverAt, batch);
    }
    return batch;
  }

  private sent(batch: DeliveryBatch, before: number, tick: number, m: number): number {
    const recipients = batch.length - before;
    this.pendingRows += recipients;
    this.lastBatch = batch;
    this.lastIndex = m;
    if (this.events.observed)
      this.events.next({
        type: 'sent',
        tick,
        message: batch.message(m),
        recipients,
        to: batch.to.subarray(before, batch.length),
      });
    return batch.id[m];
  }

  private route(batch: DeliveryBatch, m: number, from: number, address: Address): void {
    switch (address.to) {
      case 'agent':
        this.checkAgent(address.id, 'recipient');
        batch.add(address.id, m);
        return;
      case 'neighbours': {
        const topo = this.topology;
        if (!topo || from < 0)
          throw new RunError(
            from < 0
              ? 'the world has no neighbours to send to'
              : 'this world has no network: cannot send to neighbours',
          );
        const d = topo.degree(from);
        for (let k = 0; k < d; k++) batch.add(topo.neighbour(from, k), m);
        return;
      }
      case 'channel':
        for (const member of this.channelMembers(address.channel)) if (member !== from) batch.add(member, m);
        return;
      case 'all':
        for (let i = 0; i < this.size; i++) if (i !== from) batch.add(i, m);
        return;
    }
  }

  private checkAgent(i: number, what: string): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.size)
      throw new RunError(`${what} ${i} is not an agent (population ${this.size})`);
  }

  /**
   * Creates a message of an encounter: said by `from` to `to` at `tick`, heard at once
   * (`deliverAt = tick`, route `encounter`). Returns the message as sent and what `to`
   * hears of it after the visibility rule (null: withheld). Nothing is queued.
   */
  encounterMessage(
    from: number,
    to: number,
    tick: number,
    kind: string,
    item: string | undefined,
    payload: Json | undefined,
  ): { sent: Message; heard: Message | null } {
    const sent = this.say(from, to, tick, kind, item, payload);
    return { sent, heard: this.heardBy(sent, to) };
  }

  /**
   * {@link encounterMessage} without the pair: the message of an encounter as sent (nothing
   * queued). What `to` hears of it is {@link heardBy}.
   */
  say(
    from: number,
    to: number,
    tick: number,
    kind: string,
    item: string | undefined,
    payload: Json | undefined,
  ): Message {
    this.checkAgent(to, 'encounter partner');
    return {
      id: this.nextId++,
      from,
      route: 'encounter',
      channel: undefined,
      kind,
      item,
      payload,
      sentAt: tick,
      deliverAt: tick,
    };
  }

  /** What `recipient` hears of `message` after the visibility rule (null: withheld). */
  heardBy(message: Message, recipient: number): Message | null {
    return this.visibility ? this.visibility(message, recipient, this.visibilityCtx) : message;
  }

  /** Reports a resolved encounter to observers: full logs, and the two sides' observation streams. */
  encountered(
    tick: number,
    record: EncounterRecord,
    heard: Message | null,
    replyHeard: Message | null,
  ): void {
    if (this.events.observed) this.events.next({ type: 'encounter', tick, encounter: record });
    if (this.streams.size === 0) return;
    const responder = this.streams.get(record.responder);
    if (heard && responder) responder.next([heard]);
    const opener = this.streams.get(record.said.from);
    if (replyHeard && opener) opener.next([replyHeard]);
  }

  /** True if anyone observes encounters (full logs, observation streams). */
  get observingEncounters(): boolean {
    return this.events.observed || this.streams.size > 0;
  }

  /** Makes the deliveries due at `tick` visible; returns how many agents have mail. */
  release(tick: number): number {
    const carried = this.carryOver(tick);
    let due: DeliveryBatch | undefined;
    for (const at of [...this.pending.keys()].filter((t) => t <= tick).sort((a, b) => a - b)) {
      const b = this.pending.get(at)!;
      this.pending.delete(at);
      this.pendingRows -= b.length;
      if (due) {
        due.append(b);
        this.recycle(b);
      } else due = b;
    }
    // carried deliveries were filtered when they arrived
    if (due && this.visibility) {
      const withheld = this.reportWithheld && this.events.observed ? new WithheldLog() : undefined;
      due.filter(this.visibility, this.visibilityCtx, withheld);
      withheld?.report(this, tick, (e) => this.events.next(e));
    }
    if (carried && due) {
      carried.append(due);
      this.recycle(due);
    }
    const batch = carried ?? due ?? this.fresh(tick);
    this.recycle(this.current);
    this.current = batch;
    this.releasedTick = tick;
    this.index(batch);
    return this.touchedCount;
  }

  private carryOver(tick: number): DeliveryBatch | undefined {
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

  private index(batch: DeliveryBatch): void {
    const n = batch.length;
    const count = this.inboxCount;
    if (this.touched.length < n) this.touched = new Int32Array(n);
    if (this.order.length < n) this.order = new Int32Array(n);
    let t = 0;
    for (let r = 0; r < n; r++) {
      const to = batch.to[r];
      if (count[to] === 0) this.touched[t++] = to;
      count[to]++;
    }
    this.touchedCount = t;
    const touched = this.touched.subarray(0, t).sort();
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
    return this.inboxCount[i] > 0;
  }

  /** Agents with messages this tick, ascending (a live view until the next release). */
  recipients(): Int32Array {
    return this.touched.subarray(0, this.touchedCount);
  }

  /**
   * Hands agent `i` its whole inbox for this step and marks it observed. The returned view
   * is reused by the next call.
   */
  take(i: number): Inbox {
    const n = this.inboxCount[i];
    const view = this.view.aim(i, this.order, this.inboxStart[i], n);
    if (n === 0) return view;
    this.inboxCount[i] = 0;
    const stream = this.streams.get(i);
    if (stream || this.events.observed) {
      const messages = view.toArray();
      stream?.next(messages);
      if (this.events.observed)
        this.events.next({ type: 'observed', tick: this.releasedTick, agent: i, messages });
    }
    return view;
  }

  /** An empty inbox view (for commits of asynchronous decisions). */
  emptyInbox(): Inbox {
    return this.view.aim(-1, this.order, 0, 0);
  }

  /** Agent `i`'s observation stream: one array per step in which it had mail. */
  observe(i: number): Observable<readonly Message[]> {
    this.checkAgent(i, 'observer');
    let s = this.streams.get(i);
    if (!s) {
      s = new Subject<readonly Message[]>();
      this.streams.set(i, s);
    }
    return s.asObservable();
  }

  /**
   * Everything in flight as plain JSON: pending batches and inboxes not yet taken (for
   * snapshots). A batch's `to` and `msg` columns are base64 strings, or arrays of base64
   * chunks of `chunkChars` characters when one string would be longer (see
   * {@link typedToBase64Chunks}), so that no string outgrows V8's limit.
   * @throws ConfigError when the state would not fit in the heap (see {@link checkBusStateFits}).
   */
  exportState(chunkChars = BASE64_CHUNK_CHARS): Json {
    const batch = (b: DeliveryBatch): Json => ({
      deliverAt: b.deliverAt,
      messages: b.messages() as unknown as Json,
      to: typedToBase64Chunks(b.to.subarray(0, b.length), chunkChars),
      msg: typedToBase64Chunks(b.msg.subarray(0, b.length), chunkChars),
    });
    const keys = [...this.pending.keys()].sort((a, b) => a - b);
    let messages = this.current.count;
    for (const b of this.pending.values()) messages += b.count;
    checkBusStateFits({ rows: this.pendingCount, messages, tick: this.releasedTick });
    const waiting = this.carryOver(this.releasedTick);
    if (waiting) this.index(waiting);
    this.recycle(this.current);
    this.current = waiting ?? this.fresh(this.releasedTick);
    return {
      nextId: this.nextId,
      releasedTick: this.releasedTick,
      pending: keys.map((k) => batch(this.pending.get(k)!)),
      waiting: waiting ? batch(waiting) : null,
    };
  }

  /** Restores {@link MessageBus.exportState}'s output (into a fresh bus of the same world); columns in either form. */
  importState(json: Json): void {
    const s = json as { nextId: number; releasedTick: number; pending: Json[]; waiting: Json | null };
    const batch = (j: Json): DeliveryBatch => {
      const o = j as unknown as {
        deliverAt: number;
        messages: Message[];
        to: string | string[];
        msg: string | string[];
      };
      const b = this.fresh(o.deliverAt);
      for (const m of o.messages) b.addMessage(m);
      const to = base64ToTyped(o.to, Int32Array);
      const msg = base64ToTyped(o.msg, Int32Array);
      for (let r = 0; r < to.length; r++) b.add(to[r], msg[r]);
      return b;
    };
    this.nextId = s.nextId;
    this.releasedTick = s.releasedTick;
    this.pending.clear();
    this.pendingRows = 0;
    for (const j of s.pending) {
      const b = batch(j);
      this.pending.set(b.deliverAt, b);
      this.pendingRows += b.length;
    }
    for (let k = 0; k < this.touchedCount; k++) this.inboxCount[this.touched[k]] = 0;
    this.touchedCount = 0;
    this.recycle(this.current);
    this.current = s.waiting ? batch(s.waiting) : this.fresh(this.releasedTick);
    this.index(this.current);
  }

  /** Completes every stream. */
  close(): void {
    for (const s of this.streams.values()) s.complete();
    this.events.complete();
  }
}

function routeOf(address: Address): Route {
  switch (address.to) {
    case 'agent':
      return 'direct';
    case 'neighbours':
      return 'neighbours';
    case 'channel':
      return 'channel';
    case 'all':
      return 'broadcast';
    default:
      throw new RunError(`unknown address ${JSON.stringify(address)}`, {
        hint: "use { to: 'agent', id }, { to: 'neighbours' }, { to: 'channel', channel } or { to: 'all' }",
      });
  }
}

/** Deliveries withheld in one release, grouped by message (in row order) for full logs. */
class WithheldLog {
  private readonly byMessage = new Map<Message, number[]>();

  add(message: Message, to: number): void {
    const list = this.byMessage.get(message);
    if (list) list.push(to);
    else this.byMessage.set(message, [to]);
  }

  /** Emits one `withheld` event per (message, rule), recipients in delivery order. */
  report(bus: MessageBus, tick: number, emit: (e: BusEvent) => void): void {
    for (const [message, recipients] of this.byMessage) {
      const byRule = new Map<string, number[]>();
      for (const to of recipients) {
        const rule = bus.withholdingRule(message, to) ?? 'visibility';
        const list = byRule.get(rule);
        if (list) list.push(to);
        else byRule.set(rule, [to]);
      }
      for (const [rule, to] of byRule) emit({ type: 'withheld', tick, message, to, rule });
    }
  }
}
