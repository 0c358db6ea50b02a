import type { JudgeReply } from '../judge-reply.ts';
import type { Contract, Parsing, RUBRICS } from '../params.ts';
import type { TurnReply } from '../transcript.ts';
import type { Pack } from './pack.ts';
import type { Reading } from './reading.ts';
import type { ScriptLine } from './script-parser.ts';

/**
 * How a zhou2024 run renders its texts: the rules that differ between the two reply
 * contracts. The `sotopia` contract renders as Sotopia's code does; the `grapevine`
 * contract as the world did up to version 2.1 (its logs replay with these rules).
 */
export interface Rendering {
  /** `{{` and `}}` are escapes in templates (Python's `str.format`). */
  escapes: boolean;
  /** Scenario and goals keep their white space (Sotopia's XML rendering); else each run of white space is one space. */
  keepWhitespace: boolean;
  /** The filled context goes through Sotopia's `format_docstring` (line-leading spaces removed, ends stripped). */
  cleanContext: boolean;
  /** A history turn line loses its trailing white space. */
  trimTurnLines: boolean;
  /**
   * The judge's history leaves out every entry whose text holds the `none` phrase, as
   * Sotopia's evaluator does (`"did nothing" not in ...`); else only the `none` turns.
   */
  textualNone: boolean;
}

/** A reply asked for: the format text the prompt carries, and how the reply is read. */
export interface Asked<T> {
  format: string;
  reading: Reading<T>;
}

/**
 * A reply contract: the fields a model is asked to fill, what they mean, how they are
 * shown in the prompt and read back. `sotopia` is Sotopia's (`AgentAction`'s `action_type`
 * and `argument`; `EnvResponse`'s `agent_1_evaluation` and `agent_2_evaluation` holding a
 * `[reasoning, score]` pair per dimension); `grapevine` the world's own up to version 2.1.
 */
export interface ReplyContract {
  readonly name: Contract;
  readonly rendering: Rendering;
  /** A turn of a character (and of the playwright under `parsing: reask`). */
  turn(pack: Pack, parsing: Parsing): Asked<TurnReply>;
  /** The judge's scores for the two characters. */
  judge(
    pack: Pack,
    names: readonly [string, string],
    rubric: (typeof RUBRICS)[number],
    parsing: Parsing,
  ): Asked<JudgeReply>;
  /** A whole script as JSON (`parsing: reask`; Sotopia's script writer writes free text). */
  scriptJson(pack: Pack, names: readonly [string, string]): Asked<ScriptLine[]>;
}

/** A dimension's text for the rubric: its steps, with its bands (or its whole `plus` text) for `plus`. */
export function dimensionText(
  pack: Pack,
  fill: (template: string, values: Record<string, string>) => string,
  dimension: string,
  rubric: (typeof RUBRICS)[number],
): string {
  const r = pack.rubric[dimension];
  if (rubric === 'basic') return r.steps;
  return r.plus ?? fill(pack.pieces['rubric-plus'], { steps: r.steps, bands: r.bands ?? '' });
}
