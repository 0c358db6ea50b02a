import {
  BASE64_CHUNK_CHARS,
  type Base64Like,
  type Base64Text,
  base64ToTyped,
  ConfigError,
  type Json,
  type MemoryBudget,
  RunError,
  typedToBase64Chunks,
  typedToBase64Texts,
} from '../core/index.ts';
import type { Topology } from '../network/topology.ts';
import { AddressRouter, routeOf } from './address-router.ts';
import type { DeliveryBatch } from './delivery-batch.ts';
import type { Message, OutgoingMessage, Visibility, VisibilityRule } from './message.ts';
import { ObservedInboxes } from './observed-inboxes.ts';
import { BusGrowthGuard, checkBusStateFits } from './state-budget.ts';
import { VisibilityRules } from './visibility-rules.ts';
import { WithheldLog } from './withheld-log.ts';

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
  /** The memory budget the deliveries in flight are held to (default: `memoryBudget()`). */
  memory?: MemoryBudget;
}

/**
 * The routed message bus. Sending expands the address into recipients at once (cost
 * proportional to the recipients, never to the population; {@link AddressRouter}) into
 * the batch due at `tick + latency`. `release(tick)` indexes that batch by recipient
 * ({@link ReleasedInboxes}); each agent then takes its whole inbox in one step. Inboxes of
 * agents that did not act carry over to the next tick. Agents (or tools) that want a
 * stream subscribe to {@link observe}.
 */
export class MessageBus extends ObservedInboxes {
  readonly latency: number;
  private readonly router: AddressRouter;
  private readonly visibility?: VisibilityRule;
  private readonly rules: VisibilityRules;
  private readonly visibilityCtx: { network: Topology | undefined };
  /** Report every delivery a visibility rule withholds as a `withheld` event (full logs only). */
  reportWithheld = false;
  private readonly pending = new Map<number, DeliveryBatch>();
  private pendingRows = 0;
  private nextId = 0;
  private lastBatch: DeliveryBatch;
  private lastIndex = 0;
  /** The pending batch of the last send at the default latency and its delivery tick (-1: none). */
  private hotAt = -1;
  private hotBatch: DeliveryBatch | undefined;
  private readonly growth: BusGrowthGuard;

  constructor(opts: BusOptions) {
    super(opts.size);
    this.latency = opts.latency ?? 1;
    if (!Number.isInteger(this.latency) || this.latency < 1) {
      throw new ConfigError(`delivery latency must be an integer >= 1 tick, got ${opts.latency}`, {
        hint: 'latency 1 means simultaneous update: what is said at t is heard at t+1',
      });
    }
    this.router = new AddressRouter(opts.size, opts.topology);
    this.rules = new VisibilityRules(opts.visibility);
    this.visibility = this.rules.apply;
    this.visibilityCtx = { network: opts.topology };
    this.lastBatch = this.current;
    this.growth = new BusGrowthGuard(opts.memory);
  }

  /** Replaces the network used for `neighbours` addressing (network interventions). */
  setTopology(topology: Topology): void {
    this.router.topology = topology;
    this.visibilityCtx.network = topology;
  }

  /** The name of the visibility rule that withholds `message` from `recipient` now, or null. */
  withholdingRule(message: Message, recipient: number): string | null {
    return this.rules.withholding(message, recipient, this.visibilityCtx);
  }

  /** Declares a channel and its members (agent indices). */
  defineChannel(name: string, members: readonly number[] | Int32Array): void {
    this.router.defineChannel(name, members);
  }

  /** Members of a channel, ascending. */
  channelMembers(name: string): Int32Array {
    return this.router.channelMembers(name);
  }

  /** Envelopes routed but not yet observed (pending plus current undelivered). */
  get pendingCount(): number {
    return this.pendingRows + this.undelivered();
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
    this.router.route(batch, m, from, a);
    return this.sent(batch, before, tick, m);
  }

  /** Sends a direct message to one agent without building an address (the hot path). */
  sendTo(from: number, tick: number, to: number, kind: string, item?: string, payload?: Json): Message {
    this.postTo(from, tick, to, kind, item, payload);
    return this.lastBatch.message(this.lastIndex);
  }

  /** {@link sendTo} without building the message object: returns its id. */
  postTo(from: number, tick: number, to: number, kind: string, item?: string, payload?: Json): number {
    this.router.checkAgent(to, 'recipient');
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

  /** Messages the batches in flight hold (pending and the current inbox). */
  private messagesInFlight(): number {
    let messages = this.current.count;
    for (const b of this.pending.values()) messages += b.count;
    return messages;
  }

  private batchFor(tick: number, latency: number | undefined): DeliveryBatch {
    // a step's sends, and a tick's, mostly go to one batch: skip the map then
    if (latency === undefined && tick + this.latency === this.hotAt) return this.hotBatch!;
    const l = latency ?? this.latency;
    if (!Number.isInteger(l) || l < 1)
      throw new RunError(`message latency must be an integer >= 1, got ${l}`);
    const deliverAt = tick + l;
    let batch = this.pending.get(deliverAt);
    if (!batch) {
      batch = this.fresh(deliverAt);
      this.pending.set(deliverAt, batch);
    }
    if (latency === undefined) {
      this.hotAt = deliverAt;
      this.hotBatch = batch;
    }
    return batch;
  }

  private sent(batch: DeliveryBatch, before: number, tick: number, m: number): number {
    const recipients = batch.length - before;
    this.pendingRows += recipients;
    this.lastBatch = batch;
    this.lastIndex = m;
    if (this.growth.due(recipients))
      this.growth.check({ rows: this.pendingCount, messages: this.messagesInFlight(), tick });
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
    this.router.checkAgent(to, 'encounter partner');
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

  /** Makes the deliveries due at `tick` visible; returns how many agents have mail. */
  release(tick: number): number {
    this.hotAt = -1;
    this.hotBatch = undefined;
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
      withheld?.report(
        (m, to) => this.withholdingRule(m, to),
        tick,
        (e) => this.events.next(e),
      );
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

  /**
   * Everything in flight as plain JSON: pending batches and inboxes not yet taken (for
   * snapshots). A batch's `to` and `msg` columns are base64 strings, or arrays of base64
   * chunks of `chunkChars` characters when one string would be longer (see
   * {@link typedToBase64Chunks}), so that no string outgrows V8's limit.
   * @throws ConfigError when the messages would not fit in the memory left (see {@link checkBusStateFits}).
   */
  exportState(chunkChars = BASE64_CHUNK_CHARS): Json {
    return this.exportWith((view) => typedToBase64Chunks(view, chunkChars));
  }

  /**
   * {@link exportState} with the columns as {@link Base64Text}s: views of the bus's own
   * columns, encoded only when written (a snapshot written part by part never holds its
   * columns' text). Its canonical JSON is {@link exportState}'s. It is valid until the bus
   * next releases, imports or exports: write it at once.
   */
  exportStateView(chunkChars = BASE64_CHUNK_CHARS): Json {
    return this.exportWith((view) => typedToBase64Texts(view, chunkChars) as unknown as Json);
  }

  private exportWith(column: (view: Int32Array) => Json): Json {
    const batch = (b: DeliveryBatch): Json => ({
      deliverAt: b.deliverAt,
      messages: b.messages() as unknown as Json,
      to: column(b.to.subarray(0, b.length)),
      msg: column(b.msg.subarray(0, b.length)),
    });
    const keys = [...this.pending.keys()].sort((a, b) => a - b);
    checkBusStateFits(
      { rows: this.pendingCount, messages: this.messagesInFlight(), tick: this.releasedTick },
      this.growth.allowance,
    );
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

  /** Restores {@link MessageBus.exportState}'s output (into a fresh bus of the same world); columns in any form. */
  importState(json: Json): void {
    const s = json as { nextId: number; releasedTick: number; pending: Json[]; waiting: Json | null };
    const batch = (j: Json): DeliveryBatch => {
      const o = j as unknown as {
        deliverAt: number;
        messages: Message[];
        to: Base64Like | Base64Like[];
        msg: Base64Like | Base64Like[];
      };
      const b = this.fresh(o.deliverAt);
      for (const m of o.messages) b.addMessage(m);
      // chunk by chunk (the columns are cut alike), so that only one chunk is decoded at a time
      const to = Array.isArray(o.to) ? o.to : [o.to];
      const msg = Array.isArray(o.msg) ? o.msg : [o.msg];
      const pairs = to.length === msg.length ? to.map((t, k) => [t, msg[k]]) : [[to, msg]];
      for (const [t, m] of pairs) {
        const rows = base64ToTyped(t, Int32Array);
        const index = base64ToTyped(m, Int32Array);
        for (let r = 0; r < rows.length; r++) b.add(rows[r], index[r]);
      }
      return b;
    };
    this.nextId = s.nextId;
    this.releasedTick = s.releasedTick;
    this.pending.clear();
    this.hotAt = -1;
    this.hotBatch = undefined;
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
}
