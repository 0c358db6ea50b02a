import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { ConfigError, z } from '../../src/index.ts';

const share = z.number().min(0);
const answers = z
  .record(z.string().min(1), share)
  .refine((d) => Object.values(d).reduce((s, p) => s + p, 0) > 0, 'the shares sum to 0');
const selector = { attribute: z.string().min(1), value: z.coerce.string() };

/**
 * Zod schema of a synthetic-respondents ground-truth file (YAML or JSON). Every planted
 * effect is a plain number so a test can compare what a diagnostic measures with it.
 */
export const syntheticTruthSchema = z.strictObject({
  /** Variance kept: each answer comes from the item's distribution with this probability, else it is the central option. */
  compression: z.number().gt(0).max(1).default(1),
  /** Probability that a respondent takes the option shown first, whatever its distribution. */
  orderEffect: z.number().min(0).max(1).default(0),
  /** Probability that a respondent changes its answer when a scripted interlocutor pushes back. */
  flip: z.number().min(0).max(1).default(0),
  /** Probability that a respondent adopts its neighbours' most common answer in the discussion phase. */
  conformity: z.number().min(0).max(1).default(0),
  /** Shifts of the answers of one persona group, in steps of the item's ordered options or values. */
  bias: z
    .array(z.strictObject({ ...selector, shift: z.number(), items: z.array(z.string()).optional() }))
    .default([]),
  /** Per item id: the answer shares (option id or numeric value → share) and per-group overrides. */
  items: z
    .record(
      z.string().min(1),
      z.strictObject({
        answers,
        groups: z.array(z.strictObject({ ...selector, answers })).default([]),
      }),
    )
    .default({}),
});

/** A parsed ground-truth file. */
export type SyntheticTruth = z.output<typeof syntheticTruthSchema>;

const HINT = 'see docs/SURVEY.md for the ground-truth file format of `serve-llm --synthetic`';

/** Reads and validates a ground-truth file; errors name the file and line. */
export function loadSyntheticTruth(path: string): SyntheticTruth {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(`cannot read the synthetic-respondents file ${path}`, {
      cause,
      hint: 'check the path',
    });
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0)
    throw new ConfigError(`${path}:${lines.linePos(doc.errors[0].pos[0]).line}: not valid YAML/JSON`, {
      hint: HINT,
    });
  const parsed = syntheticTruthSchema.safeParse(doc.toJSON());
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const node = doc.getIn(issue.path as (string | number)[], true) as
    | { range?: [number, number, number] }
    | undefined;
  const line = node?.range ? lines.linePos(node.range[0]).line : 1;
  throw new ConfigError(`${path}:${line}: ${issue.path.join('.') || '(root)'}: ${issue.message}`, {
    hint: HINT,
  });
}
