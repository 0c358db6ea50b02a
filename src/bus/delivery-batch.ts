import type { Message } from './message.ts';

/**
 * Deliveries due at one tick, stored as parallel typed rows (recipient, message index) so
 * routing a million deliveries allocates no per-delivery objects.
 */
export class DeliveryBatch {
  readonly messages: Message[] = [];
  to = new Int32Array(64);
  msg = new Int32Array(64);
  length = 0;

  /** @param deliverAt the tick these deliveries become visible. */
  constructor(readonly deliverAt: number) {}

  /** Adds a message and returns its index in this batch. */
  addMessage(m: Message): number {
    this.messages.push(m);
    return this.messages.length - 1;
  }

  /** Adds one delivery row. */
  add(to: number, msgIndex: number): void {
    if (this.length === this.to.length) this.grow();
    this.to[this.length] = to;
    this.msg[this.length] = msgIndex;
    this.length++;
  }

  private grow(): void {
    const cap = this.to.length * 2;
    const to = new Int32Array(cap);
    to.set(this.to);
    const msg = new Int32Array(cap);
    msg.set(this.msg);
    this.to = to;
    this.msg = msg;
  }
}
