/**
 * Derives data/human/anes96-politics.csv (a human reference file, docs/VALIDITY.md) from the
 * ANES 1996 subset distributed with statsmodels (statsmodels/datasets/anes96/anes96.csv,
 * whitespace-separated, quoted header, 944 rows). The raw file is not in this repository:
 *
 *   npx tsx scripts/derive-anes96.ts path/to/anes96.csv > data/human/anes96-politics.csv
 *
 * Counts per item (selfLR, PID, ClinLR, DoleLR, vote) and group (all, education band, age
 * band), every option written (zero counts included). Derivation: data/human/README.md.
 */
import { readFileSync } from 'node:fs';

interface ItemSpec {
  /** Item id in the reference and items files. */
  id: string;
  /** Column of the statsmodels file. */
  column: string;
  /** Raw code → option id, in option order. */
  codes: [number, string][];
}

const scale = (from: number): [number, string][] =>
  Array.from({ length: 7 }, (_, k) => [from + k, String(from + k)] as [number, string]);

const ITEMS: ItemSpec[] = [
  { id: 'anes_self_lr', column: 'selfLR', codes: scale(1) },
  { id: 'anes_party_id', column: 'PID', codes: scale(0) },
  { id: 'anes_clinton_lr', column: 'ClinLR', codes: scale(1) },
  { id: 'anes_dole_lr', column: 'DoleLR', codes: scale(1) },
  {
    id: 'anes_vote',
    column: 'vote',
    codes: [
      [0, 'clinton'],
      [1, 'dole'],
    ],
  },
];

/** Groups: a label and a test on the raw row. */
const GROUPS: [string, (r: Record<string, number>) => boolean][] = [
  ['all', () => true],
  ['educ=no-college', (r) => r.educ <= 3],
  ['educ=college', (r) => r.educ >= 4],
  ['age=18-34', (r) => r.age <= 34],
  ['age=35-54', (r) => r.age >= 35 && r.age <= 54],
  ['age=55+', (r) => r.age >= 55],
];

const SOURCE =
  'American National Election Studies 1996 (ANES); subset of 944 respondents distributed with statsmodels (datasets/anes96; marked public domain); counts derived by scripts/derive-anes96.ts; see data/human/README.md';

function readRows(path: string): Record<string, number>[] {
  const lines = readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  const header = lines[0]
    .trim()
    .split(/\s+/)
    .map((h) => h.replace(/'/g, ''));
  return lines.slice(1).map((line, k) => {
    const cells = line.trim().split(/\s+/);
    if (cells.length !== header.length)
      throw new Error(`${path}:${k + 2}: ${cells.length} fields, expected ${header.length}`);
    const row: Record<string, number> = {};
    header.forEach((h, i) => {
      const v = Number(cells[i]);
      if (!Number.isFinite(v)) throw new Error(`${path}:${k + 2}: ${h} is not a number: ${cells[i]}`);
      row[h] = v;
    });
    return row;
  });
}

function csvLines(rows: Record<string, number>[]): string[] {
  const out: string[] = [];
  for (const item of ITEMS)
    for (const [group, test] of GROUPS) {
      const members = rows.filter(test);
      const counts = new Map(item.codes.map(([code]) => [code, 0]));
      for (const r of members) {
        const v = r[item.column];
        if (!counts.has(v)) throw new Error(`${item.column} = ${v} is not a known code`);
        counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      for (const [code, option] of item.codes)
        out.push(`${item.id},${group},${option},${counts.get(code)},${members.length},"${SOURCE}"`);
    }
  return out;
}

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: npx tsx scripts/derive-anes96.ts path/to/anes96.csv\n');
  process.exit(2);
}
const rows = readRows(path);
process.stdout.write(
  [
    '# ANES 1996 (statsmodels subset, 944 respondents): counts per item, group and option.',
    '# Derived by scripts/derive-anes96.ts; source, licence, codes and caveats: data/human/README.md.',
    'item,group,option,count,n,source',
    ...csvLines(rows),
    '',
  ].join('\n'),
);
