import { z } from 'zod';
import { ConfigError } from '../core/index.ts';
import type { SurveyAnswer } from './answers.ts';
import { readTableFile, type TableRow } from './table-file.ts';

const PHASES = ['initial', 'discussion', 'pushback'] as const;
const KINDS = ['choice', 'likert', 'numeric'] as const;

const answerSchema = z
  .object({
    agent: z.string().min(1),
    item: z.string().min(1),
    group: z.record(z.string(), z.string()).default({}),
    kind: z.enum(KINDS),
    answer: z.union([z.string().min(1), z.number().finite()]),
    distribution: z.record(z.string(), z.number().min(0).max(1)).optional(),
    phase: z.enum(PHASES).default('initial'),
    optionOrder: z.array(z.string()).optional(),
  })
  .strict();

/** Turns a flat CSV row (group.<key>, p.<option>, option_order a|b|c) into the NDJSON shape. */
function unflatten(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const group: Record<string, unknown> = {};
  const dist: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (k.startsWith('group.')) group[k.slice(6)] = v;
    else if (k.startsWith('p.')) dist[k.slice(2)] = Number(v);
    else if (k === 'option_order') out.optionOrder = String(v).split('|');
    else out[k] = v;
  }
  out.group = group;
  if (Object.keys(dist).length > 0) out.distribution = dist;
  return out;
}

function toAnswer(path: string, row: TableRow, csv: boolean): SurveyAnswer {
  const raw = csv ? unflatten(row.fields) : row.fields;
  const parsed = answerSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${path}:${row.line}: ${issue.path.join('.') || 'row'}: ${issue.message}`, {
      hint: 'see docs/VALIDITY.md, "Answers file"',
    });
  }
  const a = parsed.data as SurveyAnswer;
  if (a.kind === 'numeric') {
    const x = typeof a.answer === 'number' ? a.answer : Number(a.answer);
    if (!Number.isFinite(x))
      throw new ConfigError(`${path}:${row.line}: answer: a numeric item needs a number, got "${a.answer}"`, {
        hint: 'write the amount as a plain number, e.g. 40',
      });
    a.answer = x;
  } else a.answer = String(a.answer);
  return a;
}

/**
 * Reads simulated answers from a CSV or NDJSON file (format in docs/VALIDITY.md): NDJSON
 * lines are {@link SurveyAnswer} objects; CSV has columns agent,item,kind,answer[,phase]
 * plus `group.<attribute>` columns, optional `p.<option>` probabilities and
 * `option_order` (options joined by `|`). A missing phase is `initial`.
 * @throws ConfigError naming file:line for the first invalid row, or an empty file.
 */
export function readAnswersFile(path: string): SurveyAnswer[] {
  const csv = !/\.(nd)?jsonl?$/i.test(path);
  const rows = readTableFile(path, 'answers');
  const answers = rows.map((r) => toAnswer(path, r, csv));
  if (answers.length === 0)
    throw new ConfigError(`${path}: the answers file holds no answers`, { hint: 'see docs/VALIDITY.md' });
  return answers;
}
