import { z } from 'zod';
import { ConfigError, checkBatchSize } from '../core/index.ts';
import { readTableFile, type TableRow } from './table-file.ts';

/** A human reference distribution of one item in one group. */
export interface HumanDistribution {
  item: string;
  /** Attribute constraints of the group; `{}` is everyone. */
  group: Record<string, string>;
  /** The group as written in the file (`all`, `gender=female;age=18-29`). */
  groupLabel: string;
  /** Share per option, summing to 1 (options in file order). */
  shares: Record<string, number>;
  /** Number of human respondents behind the shares. */
  n: number;
  /** Citation of the numbers. */
  source: string;
}

const num = z.coerce.number().finite();
const rowSchema = z
  .object({
    item: z.string().min(1),
    group: z.string().min(1).default('all'),
    option: z.coerce.string().min(1),
    count: num.min(0).optional(),
    share: num.min(0).max(1).optional(),
    n: num.int().positive().optional(),
    source: z.string().min(1),
  })
  .strict()
  .refine((r) => (r.count === undefined) !== (r.share === undefined), 'give exactly one of count and share')
  .refine((r) => r.share === undefined || r.n !== undefined, 'a share needs n (the number of respondents)');

type Row = z.infer<typeof rowSchema> & { line: number };

/** Parses `all` or `key=value;key=value` into attribute constraints. */
export function parseGroup(label: string): Record<string, string> | undefined {
  if (label === 'all') return {};
  const out: Record<string, string> = {};
  for (const part of label.split(';')) {
    const m = /^([^=]+)=(.+)$/.exec(part.trim());
    if (!m) return undefined;
    out[m[1].trim()] = m[2].trim();
  }
  return out;
}

function fail(path: string, line: number, message: string): never {
  throw new ConfigError(`${path}:${line}: ${message}`, {
    hint: 'see docs/VALIDITY.md, "Human reference file"',
  });
}

function parseRow(path: string, r: TableRow): Row {
  const p = rowSchema.safeParse(r.fields);
  if (!p.success) {
    const issue = p.error.issues[0];
    fail(path, r.line, `${issue.path.join('.') || 'row'}: ${issue.message}`);
  }
  if (parseGroup(p.data.group) === undefined)
    fail(path, r.line, `group: expected "all" or key=value;key=value, got "${p.data.group}"`);
  return { ...p.data, line: r.line };
}

/** Shares of one item × group, checked: one kind of value, one n, shares summing to 1 ± 0.02. */
function distributionOf(path: string, rows: Row[]): HumanDistribution {
  const first = rows[0];
  const byCount = first.count !== undefined;
  const shares: Record<string, number> = {};
  let total = 0;
  for (const r of rows) {
    if ((r.count !== undefined) !== byCount)
      fail(path, r.line, 'mixes count and share rows in one item and group');
    if (r.n !== undefined && first.n !== undefined && r.n !== first.n)
      fail(path, r.line, `n ${r.n} differs from n ${first.n} on line ${first.line}`);
    if (r.option in shares) fail(path, r.line, `option "${r.option}" repeated`);
    const v = (byCount ? r.count : r.share) as number;
    shares[r.option] = v;
    total += v;
  }
  const n = byCount ? total : (first.n as number);
  // the split-half noise floor expands n into one code per person
  checkBatchSize({
    count: Math.round(n),
    what: 'respondents',
    from: `${path}:${first.line}: n = ${n}`,
    max: MAX_HUMAN_N,
    bytesEach: 8,
    hint: "give shares with the survey's real number of respondents n",
  });
  if (byCount && first.n !== undefined && Math.abs(first.n - total) > 1e-9)
    fail(path, first.line, `the counts sum to ${total}, not n = ${first.n}`);
  if (!byCount && Math.abs(total - 1) > 0.02) fail(path, first.line, `the shares sum to ${total}, not 1`);
  if (total <= 0) fail(path, first.line, 'the counts are all zero');
  for (const k of Object.keys(shares)) shares[k] /= total;
  const group = parseGroup(first.group) as Record<string, string>;
  return { item: first.item, group, groupLabel: first.group, shares, n, source: first.source };
}

/** Most respondents one human distribution may have (its noise floor resamples each). */
export const MAX_HUMAN_N = 100_000_000;

/**
 * Reads human reference distributions from CSV or NDJSON (columns item, group, option,
 * count or share, n, source; format in docs/VALIDITY.md). Shares within 0.02 of 1
 * (rounded published percentages) are renormalised.
 * @throws ConfigError naming file:line for the first invalid row or inconsistent group.
 */
export function readHumanFile(path: string): HumanDistribution[] {
  const rows = readTableFile(path, 'human reference').map((r) => parseRow(path, r));
  if (rows.length === 0)
    throw new ConfigError(`${path}: the human reference file holds no rows`, {
      hint: 'see docs/VALIDITY.md',
    });
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${r.item}\u0000${r.group}`;
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()].map((g) => distributionOf(path, g));
}
