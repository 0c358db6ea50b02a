import type { Message } from './message.ts';

/** Where an {@link Inbox} reads its messages from (rows of the released deliveries). */
export interface InboxSource {
  /** The message of delivery row `row`, as an object. */
  messageAtRow(row: number): Message;
  /** Sender of the message of row `row`. */
  fromAtRow(row: number): number;
  /** Kind of the message of row `row`. */
  kindAtRow(row: number): string;
  /** Item of the message of row `row`, if any. */
  itemAtRow(row: number): string | undefined;
}

/**
 * An agent's whole inbox for one step: everything delivered to it since it last acted,
 * in delivery order (carried-over messages first, then by send order). The view is reused
 * between agents: read it during the step, or copy it with {@link Inbox.toArray}.
 * {@link Inbox.fromOf}, {@link Inbox.kindOf} and {@link Inbox.itemOf} read one field of the
 * k-th message without building a message object (the hot path); {@link Inbox.get} builds it.
 */
export class Inbox implements Iterable<Message> {
  /** The agent whose inbox this is. */
  agent = -1;
  length = 0;
  private start = 0;
  private order: Int32Array = new Int32Array(0);

  constructor(private readonly source: InboxSource) {}

  /** Re-aims the view (used by the bus). */
  aim(agent: number, order: Int32Array, start: number, length: number): this {
    this.agent = agent;
    this.order = order;
    this.start = start;
    this.length = length;
    return this;
  }

  /** The k-th message (0 <= k < length). */
  get(k: number): Message {
    return this.source.messageAtRow(this.order[this.start + k]);
  }

  /** Sender of the k-th message (-1: the world). */
  fromOf(k: number): number {
    return this.source.fromAtRow(this.order[this.start + k]);
  }

  /** Kind of the k-th message. */
  kindOf(k: number): string {
    return this.source.kindAtRow(this.order[this.start + k]);
  }

  /** Item of the k-th message, if any. */
  itemOf(k: number): string | undefined {
    return this.source.itemAtRow(this.order[this.start + k]);
  }

  /** A copy of the messages, safe to keep after the step. */
  toArray(): Message[] {
    const out = new Array<Message>(this.length);
    for (let k = 0; k < this.length; k++) out[k] = this.get(k);
    return out;
  }

  *[Symbol.iterator](): Iterator<Message> {
    for (let k = 0; k < this.length; k++) yield this.get(k);
  }
}
