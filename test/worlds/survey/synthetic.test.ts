import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RngStreams } from '../../../src/core/index.ts';
import { bootstrapCi, wilson } from '../../../src/stats/index.ts';
import type { SurveyAnswer } from '../../../worlds/survey/answers.ts';
import { cli } from '../../support/cli.ts';
import { expectOfflineReplay, type SyntheticSurveyRun, syntheticSurveyRun } from './synthetic-run.ts';

// A survey run through real HTTP against `serve-llm --synthetic`: the planted flip rate and
// variance compression must be recovered from the recorded answers, within their CIs.
const AGENTS = 80;
// The planted numeric distribution: mean 50, variance 0.5 · 50² = 1250; compression keeps half.
const HUMAN_VARIANCE = 1250;
let run: SyntheticSurveyRun;
let answers: SurveyAnswer[];
let dir: string;

beforeAll(async () => {
  run = await syntheticSurveyRun(
    'synthetic',
    [
      '- {id: trust, kind: likert, text: Most people can be trusted., options: [1=No, 2=Rather not, 3=Unsure, 4=Rather yes, 5=Yes]}',
      '- {id: gift, kind: numeric, text: How many of 100 coins do you give away?, min: 0, max: 100}',
    ],
    [
      'compression: 0.5',
      'flip: 0.3',
      'items:',
      '  trust: { answers: { "1": 0.1, "2": 0.2, "3": 0.4, "4": 0.2, "5": 0.1 } }',
      '  gift: { answers: { "0": 0.25, "50": 0.5, "100": 0.25 } }',
    ],
    [`agents=${AGENTS}`, 'pushback=disagree'],
  );
  answers = run.answers;
  dir = run.dir;
}, 180_000);

afterAll(async () => {
  await run?.close();
});

describe('synthetic respondents over HTTP', () => {
  it('every respondent answers every item, alone and under pushback, with the option order it was shown', () => {
    expect(answers).toHaveLength(AGENTS * 2 * 2);
    const trust = answers.filter((a) => a.item === 'trust');
    expect(trust.every((a) => a.optionOrder?.length === 5 && a.kind === 'likert')).toBe(true);
    expect(new Set(trust.map((a) => a.optionOrder!.join(''))).size).toBeGreaterThan(20);
    expect(answers.every((a) => typeof a.group.gender === 'string' && typeof a.group.age === 'string')).toBe(
      true,
    );
  });

  it('recovers the planted flip rate 0.30 under pushback (Wilson 95% CI)', () => {
    const first = new Map(
      answers.filter((a) => a.phase === 'initial').map((a) => [`${a.agent}|${a.item}`, a.answer]),
    );
    const probed = answers.filter((a) => a.phase === 'pushback');
    const flips = probed.filter((a) => first.get(`${a.agent}|${a.item}`) !== a.answer).length;
    const ci = wilson(flips, probed.length);
    expect(ci.lo).toBeLessThanOrEqual(0.3);
    expect(ci.hi).toBeGreaterThanOrEqual(0.3);
    expect(ci.hi - ci.lo).toBeLessThan(0.2);
  });

  it('recovers the planted compression 0.5 as the variance ratio (bootstrap 95% CI)', () => {
    const xs = answers
      .filter((a) => a.item === 'gift' && a.phase === 'initial')
      .map((a) => a.answer as number);
    const variance = (s: number[]) => {
      const m = s.reduce((a, x) => a + x, 0) / s.length;
      return s.reduce((a, x) => a + (x - m) ** 2, 0) / (s.length - 1);
    };
    const rng = new RngStreams(7).stream('bootstrap');
    const ci = bootstrapCi(xs, (s) => variance(s) / HUMAN_VARIANCE, {
      replicates: 2000,
      rng: () => rng.next(),
    });
    expect(ci.lo).toBeLessThanOrEqual(0.5);
    expect(ci.hi).toBeGreaterThanOrEqual(0.5);
    // Not vacuous: the uncompressed variance (ratio 1) is outside the interval.
    expect(ci.hi).toBeLessThan(1);
  });

  it('the run replays offline byte for byte', async () => {
    await expectOfflineReplay(run);
  }, 60_000);
});

describe('bad survey input on the command line', () => {
  it('a bad items row exits 2 naming file:line, and writes nothing', async () => {
    const bad = join(dir, 'bad-items.csv');
    writeFileSync(bad, 'id,kind,text,options\nq1,likert,Agree?,1=No|2=Yes\nq2,likert,Agree?,1=No\n');
    const out = join(dir, 'never.ndjson');
    const r = await cli(['run', 'survey', '--set', `items=${bad}`, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:3: options`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });
});
