import type { Decision } from '../../src/index.ts';
import { askReply } from './protocols/ask.ts';
import type { Call } from './protocols/protocol.ts';
import { afterTurn, type SotopiaRun } from './run-context.ts';
import { NO_ACTION, type TurnRecord, type TurnReply, turnRecord } from './transcript.ts';

/** One turn asked of the model: who asks, for whom the turn is, what the protocol asks. */
export interface TurnAsk {
  /** The caller in the log: the character's seat, or the writer's. */
  caller: number;
  tick: number;
  purpose: string;
  call: Call<TurnReply>;
  /** The seat whose turn it is, and the turns so far. */
  seat: number;
  transcript: TurnRecord[];
}

/**
 * Asks the model for one turn (read as the protocol's call says; no usable reply: a
 * recorded `none`) and returns the decision that records it: the shared step of character
 * turns and of the playwright's turn-by-turn writing.
 */
export async function playTurn(run: SotopiaRun, ask: TurnAsk): Promise<Decision> {
  const request = {
    caller: String(ask.caller),
    tick: ask.tick,
    purpose: ask.purpose,
    messages: ask.call.messages,
    params: ask.call.params,
  };
  const result = await askReply({
    llm: run.llm!,
    request,
    reading: ask.call.reading,
    fallback: NO_ACTION,
    counters: run.fallbacks,
    repairPrompt: run.protocol.repairPrompt,
    repairModel: run.params.repairModel,
  });
  const turn = ask.transcript.length + 1;
  const record = turnRecord(turn, ask.seat, run.episode.names[ask.seat], result.value, result.fallback);
  return afterTurn(run, ask.caller, [...ask.transcript, record]);
}
