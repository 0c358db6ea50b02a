import type { Json } from '../core/index.ts';
import type { Message } from './message.ts';

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
