import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { type CompareReport, readHumanFile, totalVariation } from '../../src/validity/index.ts';
import { surveyAnswersFromLog } from '../../worlds/survey/answers.ts';
import { surveyResponders } from '../../worlds/survey/responders.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

// docs/SURVEY.md's worked example at a small size: synthetic respondents from the shipped
// example truth answer the two dictator items, and `compare` scores them against the
// shipped human reference (data/human/dictator-giving-taking.csv).
const AGENTS = 60;
const data = 'worlds/survey/data';
const human = 'data/human/dictator-giving-taking.csv';
const dir = tempDir('worked-example');
const log = join(dir, 'survey.ndjson');
let server: LocalLlmServer;

beforeAll(async () => {
  server = await startLocalLlmServer({
    port: 0,
    responders: surveyResponders({ synthetic: `${data}/dictator-truth.yaml` }),
  });
  const run = await cli(
    [
      'run',
      'survey',
      '--set',
      `agents=${AGENTS}`,
      '--set',
      `items=${data}/dictator-items.yaml`,
      '--set',
      `personas=${data}/dictator-personas.yaml`,
      '--llm-base-url',
      server.url,
      '--out',
      log,
    ],
    { timeoutMs: 120_000 },
  );
  expect(run.code, run.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('worked example: a synthetic survey against the shipped dictator reference', () => {
  it('compare scores every item and group, with the TV of the recorded answers against the human counts', async () => {
    const r = await cli(['compare', log, '--human', human, '--json', '--replicates', '100', '--seed', '5']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as CompareReport;
    expect(report.missing).toEqual([]);
    expect(report.rows.map((row) => `${row.item} ${row.group} ${row.nHuman}`)).toEqual([
      'dictator_give all 69',
      'dictator_give female=1 32',
      'dictator_give female=0 37',
      'dictator_take all 68',
      'dictator_take female=1 31',
      'dictator_take female=0 37',
    ]);
    const answers = (await surveyAnswersFromLog(log)).filter((a) => a.phase === 'initial');
    const refs = readHumanFile(human);
    for (const row of report.rows) {
      const ref = refs.find((h) => h.item === row.item && h.groupLabel === row.group);
      const mine = answers.filter(
        (a) => a.item === row.item && (row.group === 'all' || `female=${a.group.female}` === row.group),
      );
      expect(row.nSim).toBe(mine.length);
      // the simulated shares by hand: whole-unit answers counted per option
      const shares: Record<string, number> = {};
      for (const k of Object.keys(ref?.shares ?? {})) shares[k] = 0;
      for (const a of mine) shares[String(a.answer)] += 1 / mine.length;
      expect(row.tv.estimate).toBeCloseTo(totalVariation(shares, ref?.shares ?? {}), 12);
      expect(row.tv.lo).toBeLessThanOrEqual(row.tv.estimate);
      expect(row.tv.hi).toBeGreaterThanOrEqual(row.tv.estimate);
    }
    // the two groups partition the respondents
    expect(report.rows[1].nSim + report.rows[2].nSim).toBe(AGENTS);
    // the invented respondents pile onto the equal split far more than the 137 dictators did
    expect(report.rows[0].simShares['5']).toBeGreaterThan(0.5);
    expect(report.rows[0].humanShares['5']).toBeCloseTo(25 / 69, 12);
  });

  it('prints the table docs/SURVEY.md shows', async () => {
    const r = await cli(['compare', log, '--human', human, '--replicates', '100']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^item +group +n sim +n hum +TV \[95% CI\]/);
    expect(r.stdout).toMatch(/\ndictator_take +female=0 +\d+ +37 /);
    expect(r.stdout).toMatch(/\noverall: TV \d\.\d{3} \(\d+\.\d% of attainable\)/);
  });
});
