import type { BusEvent, EncounterRecord, Message, MessageBus } from '../bus/index.ts';
import type { RunLog } from './run-log.ts';

/**
 * At most this many agent indices on one log line: a send to more addressees (a broadcast
 * to a million agents) continues on `send-to` lines, and a larger withheld set on further
 * `withheld` lines, so that no line grows with the population.
 */
export const ADDRESSEES_PER_LINE = 1000;

/**
 * Writes the bus's events into a full log. With `addressees` (full logs written by this
 * version: header `addressees: true`) every send lists its addressees and every delivery a
 * visibility rule withheld is recorded with the rule's name; without it (older full logs,
 * which must rerun byte for byte) sends carry only a recipient count.
 */
export class DeliveryLog {
  constructor(
    private readonly log: RunLog,
    private readonly bus: MessageBus,
    private readonly addressees: boolean,
  ) {
    bus.reportWithheld = addressees;
  }

  /** Logs one bus event. */
  write(e: BusEvent): void {
    if (e.type === 'sent') this.sent(e.tick, e.message, e.recipients, e.to);
    else if (e.type === 'observed')
      this.log.append('observe', e.tick, { agent: e.agent, msgs: e.messages.map((m) => m.id) });
    else if (e.type === 'withheld') this.withheld(e.tick, e.message, e.to, e.rule);
    else this.encounter(e.tick, e.encounter);
  }

  private sent(tick: number, m: Message, recipients: number, to: Int32Array): void {
    const fields: Record<string, unknown> = {
      id: m.id,
      from: m.from,
      route: m.route,
      channel: m.channel,
      kind: m.kind,
      item: m.item,
      payload: m.payload,
      deliverAt: m.deliverAt,
      recipients,
    };
    if (!this.addressees) {
      this.log.append('send', tick, fields);
      return;
    }
    fields.to = Array.from(to.subarray(0, ADDRESSEES_PER_LINE));
    this.log.append('send', tick, fields);
    for (let k = ADDRESSEES_PER_LINE; k < to.length; k += ADDRESSEES_PER_LINE)
      this.log.append('send-to', tick, { id: m.id, to: Array.from(to.subarray(k, k + ADDRESSEES_PER_LINE)) });
  }

  private withheld(tick: number, m: Message, to: readonly number[], rule: string): void {
    for (let k = 0; k < to.length; k += ADDRESSEES_PER_LINE)
      this.log.append('withheld', tick, { id: m.id, rule, to: to.slice(k, k + ADDRESSEES_PER_LINE) });
  }

  private encounter(tick: number, e: EncounterRecord): void {
    const s = e.said;
    const r = e.reply;
    const fields: Record<string, unknown> = {
      id: s.id,
      from: s.from,
      to: e.responder,
      kind: s.kind,
      item: s.item,
      payload: s.payload,
      heard: e.heard,
      reply: r ? { id: r.id, kind: r.kind, item: r.item, payload: r.payload } : null,
      replyHeard: e.replyHeard,
      answer: e.answer,
    };
    if (this.addressees) {
      // rules are pure and the network does not change inside a tick: asking again names the rule
      if (!e.heard) fields.withheldBy = this.bus.withholdingRule(s, e.responder);
      if (r && !e.replyHeard) fields.replyWithheldBy = this.bus.withholdingRule(r, s.from);
    }
    this.log.append('encounter', tick, fields);
  }
}
