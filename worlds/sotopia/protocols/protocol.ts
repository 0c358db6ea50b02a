import type { Json, WorldView } from '../../../src/index.ts';
import type { ChatMessage, LlmParams } from '../../../src/public/llm.ts';
import type { JudgeReply } from '../judge-reply.ts';
import type { Protocol } from '../params.ts';
import type { EndReason, TurnRecord, TurnReply } from '../transcript.ts';
import type { RepairPrompt } from './ask.ts';
import type { Reading } from './reading.ts';
import type { ScriptLine } from './script-parser.ts';

/** One LLM call a protocol asks for: its messages, its model parameters, how its reply is read. */
export interface Call<T> {
  messages: ChatMessage[];
  params: LlmParams;
  reading: Reading<T>;
}

/** The script writer's call, how many times it may be asked, and how its lines become the episode. */
export interface ScriptCall extends Call<ScriptLine[]> {
  /** Calls to try before the episode ends `no-script`. */
  attempts: number;
  /** Whether the environment's memory records `scriptAttempts`. */
  recordAttempts: boolean;
  /** The episode a script's lines make (`[]`: no usable script). */
  finish(lines: readonly ScriptLine[]): { transcript: TurnRecord[]; reason: EndReason };
}

/** The judge's call and how many whole judgements may be asked. */
export interface JudgeCall extends Call<JudgeReply> {
  attempts: number;
}

/** What a protocol reads of the run summary to add its own fields. */
export interface SummaryBase {
  endReason: string;
  scores: unknown;
  judge: { model: string; fallback: boolean; errors: string[] } | null;
}

/**
 * A Sotopia protocol: what every prompt of an episode says and how every reply is read,
 * chosen once when a run is created (`protocols/choose.ts`). The seats' policies ask it for
 * their calls and know nothing of its wording.
 */
export interface SotopiaProtocol {
  readonly name: Protocol;
  /** A character's turn (`agents`, `mindreaders`). */
  characterTurn(seat: number, transcript: readonly TurnRecord[]): Call<TurnReply>;
  /** The playwright's turn for `seat`. */
  playwrightTurn(seat: number, transcript: readonly TurnRecord[]): Call<TurnReply>;
  /** The script writer's call (`script`). */
  script(): ScriptCall;
  /** The judge's call, or null when the episode is not judged. */
  judge(transcript: readonly TurnRecord[], endReason: EndReason): JudgeCall | null;
  /** Why the episode ends after the last turn, or null. */
  endReason(transcript: readonly TurnRecord[]): EndReason | null;
  /** How a repair call is asked (`parsing: sotopia`). */
  readonly repairPrompt: RepairPrompt;
  /** What the log header records of the protocol's inputs (`inputs.sotopia`). */
  readonly inputs: Record<string, Json>;
  /** Fields the protocol adds to the run summary, given the summary's own. */
  summaryFields(view: WorldView, summary: SummaryBase): Record<string, Json>;
}
