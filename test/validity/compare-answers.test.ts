import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import { compareAnswers, type HumanDistribution, jensenShannon } from '../../src/validity/index.ts';
import { sampleAnswers } from './synthetic.ts';

const human: HumanDistribution = {
  item: 'q1',
  group: {},
  groupLabel: 'all',
  shares: { 1: 0.2, 2: 0.3, 3: 0.5 },
  n: 1000,
  source: 'planted',
};
const truth = { 1: 0.4, 2: 0.3, 3: 0.3 };

describe('compareAnswers', () => {
  it('recovers planted TV, JS and W1 (one draw: within 0.03, narrow CIs), and is seeded', () => {
    const answers = sampleAnswers(4000, truth, new SeededStream('plant'));
    const r = compareAnswers(answers, [human], { seed: 3, replicates: 300, splits: 20 });
    const row = r.rows[0];
    expect(row.nSim).toBe(4000);
    for (const [m, planted] of [
      [row.tv, 0.2],
      [row.js, jensenShannon(truth, human.shares)],
      [row.w1, 0.4],
    ] as const) {
      expect(Math.abs((m?.estimate ?? 9) - planted)).toBeLessThan(0.03);
      expect(m?.lo).toBeLessThanOrEqual(m?.estimate ?? 0);
      expect(m?.hi).toBeGreaterThanOrEqual(m?.estimate ?? 0);
      expect((m?.hi ?? 0) - (m?.lo ?? 0)).toBeLessThan(0.1);
    }
    expect(compareAnswers(answers, [human], { seed: 3, replicates: 300, splits: 20 })).toEqual(r);
  });

  it('puts a perfect simulator near the split-half floor, and a wrong one far above it', () => {
    const perfect = sampleAnswers(1000, human.shares, new SeededStream('perfect'));
    const r = compareAnswers(perfect, [human], { seed: 1, replicates: 50, splits: 100 }).rows[0];
    expect(r.tv.floor).toBeGreaterThan(0);
    expect(r.tv.estimate).toBeLessThan(2 * r.tv.floor);
    expect(r.tv.attainable).toBeGreaterThan(0.97);
    const wrong = compareAnswers(sampleAnswers(1000, truth, new SeededStream('w')), [human], {
      seed: 1,
      replicates: 50,
      splits: 100,
    }).rows[0];
    expect(wrong.tv.estimate).toBeGreaterThan(3 * wrong.tv.floor);
    expect(wrong.tv.attainable).toBeLessThan(0.85);
  });

  it('bootstrap CIs cover the planted value at about the nominal 95% rate', () => {
    const trials = 100;
    const hits = { tv: 0, js: 0, w1: 0 };
    const js = jensenShannon(truth, human.shares);
    for (let t = 0; t < trials; t++) {
      const answers = sampleAnswers(300, truth, new SeededStream(`cover/${t}`));
      const row = compareAnswers(answers, [human], { seed: t, replicates: 200, splits: 2 }).rows[0];
      if (row.tv.lo <= 0.2 && 0.2 <= row.tv.hi) hits.tv++;
      if (row.js.lo <= js && js <= row.js.hi) hits.js++;
      if (row.w1 && row.w1.lo <= 0.4 && 0.4 <= row.w1.hi) hits.w1++;
    }
    // Binomial(100, 0.95): 88..100 holds with probability > 0.99
    for (const k of ['tv', 'js', 'w1'] as const) {
      expect(hits[k]).toBeGreaterThanOrEqual(88);
      expect(hits[k]).toBeLessThanOrEqual(100);
    }
  });

  it('matches groups and bins numeric answers to the nearest reference option', () => {
    const offers: HumanDistribution = {
      item: 'offer',
      group: { gender: 'f' },
      groupLabel: 'gender=f',
      shares: { 0: 0.5, 50: 0.5 },
      n: 100,
      source: 'x',
    };
    const mk = (answer: number, gender: string) => ({
      agent: 'a',
      item: 'offer',
      group: { gender },
      kind: 'numeric' as const,
      answer,
      phase: 'initial' as const,
    });
    const r = compareAnswers([mk(4, 'f'), mk(45, 'f'), mk(0, 'm'), mk(0, 'm')], [offers], {
      seed: 1,
      replicates: 10,
      splits: 5,
    });
    expect(r.rows[0].nSim).toBe(2);
    expect(r.rows[0].simShares).toEqual({ 0: 0.5, 50: 0.5 });
    expect(r.rows[0].tv.estimate).toBe(0);
    expect(compareAnswers([mk(4, 'm')], [offers], { seed: 1, replicates: 10 }).missing).toEqual([
      'offer [gender=f]',
    ]);
  });
});
