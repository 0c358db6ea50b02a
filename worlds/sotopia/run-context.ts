import type { Decision, Json, OutgoingMessage, StepContext } from '../../src/index.ts';
import type { FallbackCounter, LlmParams, LlmPort } from '../../src/public/llm.ts';
import type { Background } from './background.ts';
import type { Episode } from './episode.ts';
import type { SotopiaParams } from './params.ts';
import { ENV_SEAT } from './seats.ts';
import type { Templates } from './templates.ts';
import { type EndReason, endReason, type TurnRecord } from './transcript.ts';
import type { SeatView, WriterView } from './views.ts';
import { zhouEndReason } from './zhou-rules.ts';

/** What the zhou2024 protocol adds to a run: its templates and each reader's background. */
export interface ZhouRun {
  templates: Templates;
  /** Seats 0 and 1 in agents mode. */
  backgrounds: [Background, Background];
  /** Mindreaders, the writer and the judge. */
  omniscient: Background;
  /** Model parameters of seats 0 and 1 (the same model unless `seatModels`). */
  seatParams: [LlmParams, LlmParams];
  /** The script writer's and the playwright's. */
  writerParams: LlmParams;
}

/** Everything the seats' policies share in one run (read-only during the run). */
export interface SotopiaRun {
  params: SotopiaParams;
  episode: Episode;
  /** What seats 0 and 1 see (agents and mindreaders modes). */
  views: [SeatView, SeatView];
  /** What the omniscient writer sees (script and playwright modes). */
  writer: WriterView;
  /** What the environment and its judge see (everything). */
  environment: WriterView;
  llm?: LlmPort;
  /** Model parameters of the characters' and the writer's calls. */
  llmParams: LlmParams;
  /** Model parameters of the judge's call. */
  judgeParams: LlmParams;
  fallbacks: FallbackCounter;
  /** Set when the protocol is zhou2024. */
  zhou?: ZhouRun;
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

/**
 * A decision after a turn: the turn goes to the listener as a `turn` message (that is the
 * transcript in the log), the seat remembers the transcript, and if the turn ends the
 * episode, an `end` message with the whole transcript goes to the environment (seat 2),
 * and a character seat moves to `over`.
 */
export function afterTurn(run: SotopiaRun, sender: number, transcript: TurnRecord[]): Decision {
  const last = transcript[transcript.length - 1];
  const rule = run.zhou ? zhouEndReason : endReason;
  const reason = rule(transcript, run.params.maxTurns, run.params.maxIdle);
  const messages: OutgoingMessage[] = [
    { address: { to: 'agent', id: 1 - last.speaker }, kind: 'turn', payload: last },
  ];
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
