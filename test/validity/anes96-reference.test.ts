import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CompareReport,
  readHumanFile,
  readTableFile,
  totalVariation,
} from '../../src/validity/index.ts';
import { loadItems } from '../../worlds/survey/items.ts';
import { readTableFile as readWorldTable } from '../../worlds/survey/table-file.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

// The shipped ANES 1996 reference set (data/human/anes96-politics.csv, derived by
// scripts/derive-anes96.ts from statsmodels' anes96.csv, which is not in the repository):
// only the shipped files are checked here.
const HUMAN = 'data/human/anes96-politics.csv';
const ITEMS = 'worlds/survey/data/anes96-items.yaml';
const PERSONAS = 'worlds/survey/data/anes96-personas.yaml';
const GROUPS = ['all', 'educ=no-college', 'educ=college', 'age=18-34', 'age=35-54', 'age=55+'];
const dir = tempDir('anes96');

describe('shipped ANES 1996 reference set', () => {
  it('every item × group has integer counts summing to its n, and the bands partition the 944', () => {
    const raw = readTableFile(HUMAN, 'human reference');
    const sums = new Map<string, { total: number; n: number }>();
    for (const { fields } of raw) {
      const count = Number(fields.count);
      expect(Number.isInteger(count) && count >= 0, `line ${fields.item} ${fields.group}`).toBe(true);
      const key = `${fields.item} ${fields.group}`;
      const s = sums.get(key) ?? { total: 0, n: Number(fields.n) };
      expect(Number(fields.n)).toBe(s.n);
      s.total += count;
      sums.set(key, s);
    }
    for (const [key, s] of sums) expect(s.total, key).toBe(s.n);
    const { items } = loadItems(ITEMS);
    expect(sums.size).toBe(items.length * GROUPS.length);
    for (const item of items) {
      const n = (g: string) => sums.get(`${item.id} ${g}`)?.n ?? Number.NaN;
      expect(n('all')).toBe(944);
      expect(n('educ=no-college') + n('educ=college')).toBe(944);
      expect(n('age=18-34') + n('age=35-54') + n('age=55+')).toBe(944);
    }
  });

  it("options match the items file, groups match the personas file's attributes", () => {
    const { items } = loadItems(ITEMS);
    const refs = readHumanFile(HUMAN);
    const personaValues = readWorldTable(PERSONAS).rows.map((r) => `${r.value.attribute}=${r.value.value}`);
    for (const item of items) {
      const mine = refs.filter((r) => r.item === item.id);
      expect(mine.map((r) => r.groupLabel)).toEqual(GROUPS);
      for (const r of mine) expect(Object.keys(r.shares)).toEqual(item.options.map((o) => o.id));
    }
    expect(refs.every((r) => items.some((i) => i.id === r.item))).toBe(true);
    expect(GROUPS.slice(1).every((g) => personaValues.includes(g))).toBe(true);
    // the counts the script derived agree with a direct tally of the statsmodels file
    // (awk over anes96.csv, column selfLR, made independently of the script)
    const self = refs.find((r) => r.item === 'anes_self_lr' && r.groupLabel === 'all');
    expect(Object.values(self?.shares ?? {}).map((s) => Math.round(s * 944))).toEqual([
      16, 103, 147, 256, 170, 218, 34,
    ]);
  });

  it('grapevine compare scores answers against it: TV of a small answers file by hand', async () => {
    const answers = join(dir, 'answers.csv');
    const lines = ['agent,item,kind,answer,group.educ,group.age'];
    // 10 college respondents: 7 Clinton, 3 Dole; aged 35-54
    for (let i = 0; i < 10; i++)
      lines.push(`a${i},anes_vote,choice,${i < 7 ? 'clinton' : 'dole'},college,35-54`);
    writeFileSync(answers, `${lines.join('\n')}\n`);
    const r = await cli(['compare', answers, '--human', HUMAN, '--json', '--replicates', '50']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as CompareReport;
    expect(report.rows.map((row) => `${row.item} ${row.group} ${row.nSim}`)).toEqual([
      'anes_vote all 10',
      'anes_vote educ=college 10',
      'anes_vote age=35-54 10',
    ]);
    const college = report.rows[1];
    // human: 350 of 631 college respondents expected to vote Clinton
    expect(college.tv.estimate).toBeCloseTo(Math.abs(0.7 - 350 / 631), 12);
    expect(college.tv.estimate).toBeCloseTo(
      totalVariation({ clinton: 0.7, dole: 0.3 }, { clinton: 350 / 631, dole: 281 / 631 }),
      12,
    );
    expect(report.missing).toContain('anes_self_lr [all]');
    expect(report.missing).toContain('anes_vote [educ=no-college]');
  });
});
