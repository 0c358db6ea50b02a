import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnswersFile, readHumanFile } from '../../src/validity/index.ts';
import { hasStack } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';

// The compare commands run in this process (the CLI's `main`, nothing left open): they test
// what compare decides and writes, and a process start costs ~0.3 CPU-s; anes96-reference and
// worked-example run compare in real processes.

const dir = tempDir('compare');
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const answersCsv = file(
  'answers.csv',
  [
    'agent,item,kind,answer,phase,group.gender',
    ...Array.from({ length: 40 }, (_, i) => `a${i},likes,likert,${(i % 4) + 1},initial,${i % 2 ? 'f' : 'm'}`),
    'a0,likes,likert,4,pushback,m',
  ].join('\n'),
);
const humanCsv = file(
  'human.csv',
  [
    'item,group,option,share,n,source',
    'likes,all,1,0.25,200,planted',
    'likes,all,2,0.25,200,planted',
    'likes,all,3,0.25,200,planted',
    'likes,all,4,0.25,200,planted',
    'likes,gender=f,2,0.5,100,planted',
    'likes,gender=f,4,0.5,100,planted',
  ].join('\n'),
);

describe('answers and human reference files', () => {
  it('reads CSV and NDJSON answers into the same answers', () => {
    const fromCsv = readAnswersFile(answersCsv);
    expect(fromCsv).toHaveLength(41);
    expect(fromCsv[1]).toEqual({
      agent: 'a1',
      item: 'likes',
      kind: 'likert',
      answer: '2',
      phase: 'initial',
      group: { gender: 'f' },
    });
    const nd = file('answers.ndjson', fromCsv.map((a) => JSON.stringify(a)).join('\n'));
    expect(readAnswersFile(nd)).toEqual(fromCsv);
  });

  it('reads shares with n, groups, and renormalises rounded shares', () => {
    const h = readHumanFile(humanCsv);
    expect(h).toHaveLength(2);
    expect(h[1]).toMatchObject({ item: 'likes', group: { gender: 'f' }, n: 100, shares: { 2: 0.5, 4: 0.5 } });
    const rounded = file(
      'r.csv',
      'item,option,share,n,source\nq,a,0.333,30,s\nq,b,0.333,30,s\nq,c,0.333,30,s\n',
    );
    expect(readHumanFile(rounded)[0].shares.a).toBeCloseTo(1 / 3, 12);
  });

  it.each([
    ['answers', 'bad-kind.csv', 'agent,item,kind,answer\na,q,choice,x\na,q,essay,x\n', ':3: kind'],
    ['answers', 'bad-num.csv', 'agent,item,kind,answer\na,q,numeric,lots\n', ':2: answer'],
    [
      'answers',
      'bad.ndjson',
      '{"agent":"a","item":"q","kind":"choice","answer":"x"}\n{oops\n',
      ':2: not valid JSON',
    ],
    ['human', 'both.csv', 'item,option,count,share,n,source\nq,a,3,0.5,6,s\n', ':2: row: give exactly one'],
    [
      'human',
      'sum.csv',
      'item,option,share,n,source\nq,a,0.5,10,s\nq,b,0.3,10,s\n',
      ':2: the shares sum to 0.8',
    ],
    ['human', 'n.csv', 'item,option,share,n,source\nq,a,0.5,10,s\nq,b,0.5,12,s\n', ':3: n 12 differs'],
    ['human', 'group.csv', 'item,group,option,count,source\nq,women,a,3,s\n', ':2: group: expected'],
    ['human', 'nosrc.csv', 'item,option,count\nq,a,3\n', ':2: source'],
  ])('a bad %s file (%s) names file:line', (kind, name, text, message) => {
    const p = file(name, text);
    const read = kind === 'answers' ? readAnswersFile : readHumanFile;
    expect(() => read(p)).toThrow(`${p}${message}`);
  });
});

describe('grapevine compare', () => {
  it('prints the table, writes the HTML report and prints JSON', async () => {
    const out = join(dir, 'report.html');
    const r = await cliChecked([
      'compare',
      answersCsv,
      '--human',
      humanCsv,
      '--out',
      out,
      '--replicates',
      '200',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/likes\s+all\s+40\s+200\s+0\.000 \[/);
    expect(r.stdout).toMatch(/likes\s+gender=f\s+20\s+100\s+0\.000 \[0\.000, 0\.\d+\]/);
    expect(readFileSync(out, 'utf8')).toContain('<td>gender=f</td>');
    const j = await cliChecked(['compare', answersCsv, '--human', humanCsv, '--json', '--replicates', '50']);
    const report = JSON.parse(j.stdout);
    expect(report.rows[0].w1.estimate).toBe(0);
    expect(report.rows[0].tv.floor).toBeGreaterThan(0);
  });

  it('exits 2 naming file:line for a bad reference and writes nothing', async () => {
    const bad = file('bad-human.csv', 'item,group,option,share,n,source\nlikes,all,1,1.5,10,s\n');
    const out = join(dir, 'never.html');
    const r = await cliChecked(['compare', answersCsv, '--human', bad, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:2: share`);
    expect(hasStack(r.stderr)).toBe(false);
    expect(existsSync(out)).toBe(false);
  });
});

describe('grapevine compare on a survey log', () => {
  it("reads the answers through the survey world's extractor and matches them to the reference", async () => {
    const log = 'replays/golden/survey-synthetic-v0.1.ndjson.gz';
    const human = file(
      'trust.csv',
      [
        'item,group,option,count,source',
        ...[5, 10, 20, 40, 25].map((c, k) => `trust,all,${k + 1},${c},planted`),
      ].join('\n'),
    );
    const r = await cliChecked(['compare', log, '--human', human, '--json', '--replicates', '50']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.rows).toHaveLength(1);
    // the golden run has 8 respondents, each answering `trust` once in the initial phase
    expect(report.rows[0]).toMatchObject({ item: 'trust', group: 'all', nSim: 8, nHuman: 100 });
    const shares = Object.values(report.rows[0].simShares as Record<string, number>);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });
});
