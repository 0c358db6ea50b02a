import type { Message } from './message.ts';

/** Where an {@link Inbox} reads its messages from. */
export interface InboxSource {
  messageAtRow(row: number): Message;
}

/**
 * An agent's whole inbox for one step: everything delivered to it since it last acted,
 * in delivery order (carried-over messages first, then by send order). The view is reused
 * between agents: read it during the step, or copy it with {@link Inbox.toArray}.
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
