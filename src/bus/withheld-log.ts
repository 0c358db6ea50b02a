import type { BusEvent } from './bus-event.ts';
import type { Message } from './message.ts';

/** Deliveries withheld in one release, grouped by message (in row order) for full logs. */
export class WithheldLog {
  private readonly byMessage = new Map<Message, number[]>();

  /** Records that `to` did not get `message`. */
  add(message: Message, to: number): void {
    const list = this.byMessage.get(message);
    if (list) list.push(to);
    else this.byMessage.set(message, [to]);
  }

  /**
   * Emits one `withheld` event per (message, rule), recipients in delivery order;
   * `withholding` names the rule that withheld a delivery.
   */
  report(
    withholding: (message: Message, to: number) => string | null,
    tick: number,
    emit: (e: BusEvent) => void,
  ): void {
    for (const [message, recipients] of this.byMessage) {
      const byRule = new Map<string, number[]>();
      for (const to of recipients) {
        const rule = withholding(message, to) ?? 'visibility';
        const list = byRule.get(rule);
        if (list) list.push(to);
        else byRule.set(rule, [to]);
      }
      for (const [rule, to] of byRule) emit({ type: 'withheld', tick, message, to, rule });
    }
  }
}
