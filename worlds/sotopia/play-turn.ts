import type { Decision } from '../../src/index.ts';
import type { ChatMessage, LlmParams } from '../../src/public/llm.ts';
import { afterTurn, type SotopiaRun } from './run-context.ts';
import { askReply, type ParseResult, type RepairSpec } from './sotopia-ask.ts';
import { NO_ACTION, type TurnRecord, type TurnReply, turnRecord, turnReplySchema } from './transcript.ts';

/** How a turn's reply is read under `parsing: sotopia`: its parser and its repair prompt. */
export interface TurnReading {
  parse: (text: string) => ParseResult<TurnReply>;
  repair: RepairSpec;
}

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
  /** Set under `parsing: sotopia`: one call and one repair call instead of JSON re-asks. */
  reading?: TurnReading;
}

/**
 * Asks the model for one `{action, argument}` turn (re-asked twice, or under `parsing:
 * sotopia` repaired once, then a recorded `none`) and returns the decision that records it: the shared step of character turns and of the
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
  const reading = ask.reading && {
    ...ask.reading,
    templates: run.zhou!.templates,
    repairModel: run.params.repairModel,
  };
  const result = await askReply({
    llm: run.llm!,
    request,
    schema: turnReplySchema,
    name: 'sotopia_action',
    fallback: NO_ACTION,
    counters: run.fallbacks,
    sotopia: reading,
  });
  const record = turnRecord(ask.turn, ask.seat, run.episode.names[ask.seat], result.value, result.fallback);
  return afterTurn(run, ask.caller, [...ask.transcript, record]);
}
