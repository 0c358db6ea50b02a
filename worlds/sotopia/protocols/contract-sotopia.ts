import { z } from 'zod';
import { DIMENSION_NAMES, DIMENSIONS, type Dimension } from '../dimensions.ts';
import type { JudgeReply } from '../judge-reply.ts';
import { ACTION_TYPES, type TurnReply } from '../transcript.ts';
import { type Asked, dimensionText, type ReplyContract } from './contract.ts';
import { fillTemplate } from './fill.ts';
import type { Pack } from './pack.ts';
import { parsePydanticJson } from './pydantic-json.ts';
import { judgeSchema, type SchemaObject, scriptSchema, turnSchema } from './pydantic-schema.ts';
import { pythonJsonDumps } from './python-text.ts';
import { type Reading, wireSchema } from './reading.ts';
import type { ScriptLine } from './script-parser.ts';

/**
 * Sotopia's reply contract (sotopia-lab/sotopia at `agent_vs_storyteller_v1`): a turn is
 * `AgentAction` (`action_type`: one of the five action types; `argument`: what is said or
 * done), the judge's reply `EnvResponse` (`agent_1_evaluation`, `agent_2_evaluation`: per
 * dimension a `[reasoning, score]` pair, the score in the dimension's range). The prompt
 * shows the reply's JSON Schema as LangChain rendered pydantic's; `parsing: sotopia` reads
 * a reply as pydantic 1.10 does (numbers become text where text is due, an integral text
 * or a float becomes an integer, extra fields are ignored).
 */

const fill = (text: string, values: Record<string, string>) => fillTemplate(text, values, true);

/** pydantic 1.x `str` field: a number becomes its text. */
const laxString = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : typeof v === 'boolean' ? (v ? 'True' : 'False') : v),
  z.string(),
);

/** pydantic 1.x `int` field: `int(v)` of a bool, a float (truncated) or an integral text. */
function laxInt(min: number, max: number) {
  return z.preprocess((v) => {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
    if (typeof v === 'string' && /^\s*[+-]?\d+(?:_\d+)*\s*$/.test(v))
      return Number(v.trim().replace(/_/g, ''));
    return v;
  }, z.number().int().min(min).max(max));
}

function turnWire(lax: boolean) {
  return z.object({ action_type: z.enum(ACTION_TYPES), argument: lax ? laxString : z.string() });
}

const toTurn = (v: { action_type: TurnReply['action']; argument: string }): TurnReply => ({
  action: v.action_type,
  argument: v.argument,
});

function evaluationWire(lax: boolean) {
  const pair = (d: Dimension) => {
    const { min, max } = DIMENSIONS[d];
    return lax
      ? z.tuple([laxString, laxInt(min, max)])
      : z.tuple([z.string(), z.number().int().min(min).max(max)]);
  };
  return z.object(
    Object.fromEntries(DIMENSION_NAMES.map((d) => [d, pair(d)])) as unknown as Record<
      Dimension,
      z.ZodType<[string, number]>
    >,
  );
}

function judgeWire(lax: boolean) {
  return z.object({ agent_1_evaluation: evaluationWire(lax), agent_2_evaluation: evaluationWire(lax) });
}

type EvaluationPairs = Record<Dimension, [string, number]>;

function toEvaluation(e: EvaluationPairs): JudgeReply['agent0'] {
  const out = {} as JudgeReply['agent0'];
  for (const d of DIMENSION_NAMES) out[d] = { reasoning: e[d][0], score: e[d][1] };
  return out;
}

const toJudge = (v: {
  agent_1_evaluation: EvaluationPairs;
  agent_2_evaluation: EvaluationPairs;
}): JudgeReply => ({
  agent0: toEvaluation(v.agent_1_evaluation),
  agent1: toEvaluation(v.agent_2_evaluation),
});

/** The format text: the schema, as `json.dumps` writes it, in the pack's `format-json` wrapper. */
function jsonFormat(pack: Pack, schema: SchemaObject): string {
  return fill(pack.text['format-json'], { schema: pythonJsonDumps(schema) });
}

/** A reading of a JSON reply: strict wire schema for `reask`, pydantic's reading for `sotopia`. */
function jsonReading<W, T>(
  strict: z.ZodType<W>,
  lax: z.ZodType<W>,
  map: (w: W) => T,
  name: string,
  format: string,
  sotopia: boolean,
): Reading<T> {
  const reading: Reading<T> = {
    schema: strict.transform(map) as unknown as z.ZodType<T>,
    jsonSchema: wireSchema(strict),
    name,
  };
  if (!sotopia) return reading;
  const laxMapped = lax.transform(map) as unknown as z.ZodType<T>;
  return {
    ...reading,
    sotopia: {
      parse: (text) => parsePydanticJson(text, laxMapped),
      repair: { template: 'repair-json', format },
    },
  };
}

/** Sotopia's reply contract. */
export const sotopiaContract: ReplyContract = {
  name: 'sotopia',
  rendering: {
    escapes: true,
    keepWhitespace: true,
    cleanContext: true,
    trimTurnLines: false,
    textualNone: true,
  },
  turn(pack, parsing): Asked<TurnReply> {
    const format = jsonFormat(pack, turnSchema(pack.fields.turn));
    const reading = jsonReading(
      turnWire(false),
      turnWire(true),
      toTurn,
      'sotopia_action',
      format,
      parsing === 'sotopia',
    );
    return { format, reading };
  },
  judge(pack, _names, rubric, parsing): Asked<JudgeReply> {
    const model = rubric === 'plus' ? pack.fields.evaluation.name_plus : pack.fields.evaluation.name;
    const dims = DIMENSION_NAMES.map((d) => ({
      name: d,
      description: dimensionText(pack, fill, d, rubric),
      ...DIMENSIONS[d],
    }));
    const format = jsonFormat(pack, judgeSchema(model, dims, pack.fields.score_range));
    const reading = jsonReading(
      judgeWire(false),
      judgeWire(true),
      toJudge,
      'sotopia_eval',
      format,
      parsing === 'sotopia',
    );
    return { format, reading };
  },
  scriptJson(pack, names): Asked<ScriptLine[]> {
    const format = jsonFormat(pack, scriptSchema(pack.fields.script, pack.fields.turn, names));
    const wire = z.object({
      turns: z
        .array(z.object({ speaker: z.enum(names), action_type: z.enum(ACTION_TYPES), argument: z.string() }))
        .min(1),
    });
    const toLines = (v: z.infer<typeof wire>): ScriptLine[] =>
      v.turns.map((t) => ({ name: t.speaker, action: t.action_type, argument: t.argument }));
    return { format, reading: jsonReading(wire, wire, toLines, 'sotopia_script', format, false) };
  },
};
