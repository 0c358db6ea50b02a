import type { Decision, Json, OutgoingMessage, StepContext } from '../../src/index.ts';
import type { FallbackCounter, LlmPort } from '../../src/public/llm.ts';
import type { Episode } from './episode.ts';
import type { SotopiaParams } from './params.ts';
import type { SotopiaProtocol } from './protocols/protocol.ts';
import { ENV_SEAT } from './seats.ts';
import type { EndReason, TurnRecord } from './transcript.ts';

/** Everything the seats' policies share in one run (read-only during the run). */
export interface SotopiaRun {
  params: SotopiaParams;
  episode: Episode;
  /** The run's protocol: every prompt and how every reply is read. */
  protocol: SotopiaProtocol;
  llm?: LlmPort;
  fallbacks: FallbackCounter;
}

/** The payload of the `end` message a seat sends to the environment. */
export type EndPayload = { reason: EndReason; transcript: TurnRecord[] };

/** The transcript a seat has: its memory, then the turns it received this step (message order). */
export function transcriptOf(ctx: StepContext<unknown>): TurnRecord[] {
  const known = (ctx.get('transcript') as TurnRecord[] | undefined) ?? [];
  const heard = ctx.inbox
    .toArray()
    .filter((m) => m.kind === 'turn')
    .map((m) => m.payload as unknown as TurnRecord);
  return [...known, ...heard];
}

/** The messages that carry turns to the characters who hear them (that is the transcript in the log). */
export function turnMessages(turns: readonly TurnRecord[]): OutgoingMessage[] {
  return turns.map((t) => ({ address: { to: 'agent', id: 1 - t.speaker }, kind: 'turn', payload: t }));
}

/**
 * A decision after a turn: the turn goes to the listener as a `turn` message, the seat
 * remembers the transcript, and if the turn ends the episode, an `end` message with the
 * whole transcript goes to the environment (seat 2), and a character seat moves to `over`.
 */
export function afterTurn(run: SotopiaRun, sender: number, transcript: TurnRecord[]): Decision {
  const reason = run.protocol.endReason(transcript);
  const messages = turnMessages(transcript.slice(-1));
  if (reason) messages.push(endMessage({ reason, transcript }));
  return {
    events: reason && sender !== ENV_SEAT ? ['END'] : [],
    memory: { transcript: transcript as unknown as Json },
    messages,
  };
}

/** The `end` message to the environment. */
export function endMessage(payload: EndPayload): OutgoingMessage {
  return { address: { to: 'agent', id: ENV_SEAT }, kind: 'end', payload: payload as unknown as Json };
}
