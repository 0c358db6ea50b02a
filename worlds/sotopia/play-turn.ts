import type { ChatMessage, Decision, LlmParams } from '../../src/index.ts';
import { decideStructured } from '../../src/index.ts';
import { afterTurn, type SotopiaRun } from './run-context.ts';
import { NO_ACTION, type TurnRecord, turnRecord, turnReplySchema } from './transcript.ts';

/** One turn asked of the model: who asks, for whom the turn is, and what it sees. */
export interface TurnAsk {
  /** The caller in the log: the character's seat, or the writer's. */
  caller: number;
  tick: number;
  purpose: string;
  messages: ChatMessage[];
  /** 1-based turn number and the seat whose turn it is. */
  turn: number;
  seat: number;
  transcript: TurnRecord[];
  /** Model parameters (default: the run's `llmParams`). */
  params?: LlmParams;
}

/**
 * Asks the model for one `{action, argument}` turn (re-asked twice, then a recorded `none`)
 * and returns the decision that records it: the shared step of character turns and of the
 * playwright's turn-by-turn writing.
 */
export async function playTurn(run: SotopiaRun, ask: TurnAsk): Promise<Decision> {
  const request = {
    caller: String(ask.caller),
    tick: ask.tick,
    purpose: ask.purpose,
    messages: ask.messages,
    params: ask.params ?? run.llmParams,
  };
  const result = await decideStructured(run.llm!, request, turnReplySchema, {
    fallback: NO_ACTION,
    counters: run.fallbacks,
    name: 'sotopia_action',
  });
  const record = turnRecord(ask.turn, ask.seat, run.episode.names[ask.seat], result.value, result.fallback);
  return afterTurn(run, ask.caller, [...ask.transcript, record]);
}
