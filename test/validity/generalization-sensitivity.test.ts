import { describe, expect, it } from 'vitest';
import {
  generalization,
  type HumanDistribution,
  type Observation,
  type SurveyAnswer,
  splitItems,
  varianceDecomposition,
} from '../../src/validity/index.ts';

const items = ['i1', 'i2', 'i3', 'i4', 'i5', 'i6'];
const pOf = (item: string) => 0.2 + 0.1 * Number(item.slice(1));
const human: HumanDistribution[] = items.map((item) => ({
  item,
  group: {},
  groupLabel: 'all',
  shares: { a: pOf(item), b: 1 - pOf(item) },
  n: 100,
  source: 'planted',
}));

/** 100 answers per item with exactly `share(item)` of them "a". */
function answers(share: (item: string) => number): SurveyAnswer[] {
  return items.flatMap((item) =>
    Array.from({ length: 100 }, (_, i) => ({
      agent: `a${i}`,
      item,
      group: {},
      kind: 'choice' as const,
      answer: i < Math.round(100 * share(item)) ? 'a' : 'b',
      phase: 'initial' as const,
    })),
  );
}

describe('generalization', () => {
  it('chooses on the calibration split only and scores the choice on the held-out split', () => {
    const [cal, held] = splitItems(items, 0.5, 7);
    expect([...cal, ...held].sort()).toEqual(items);
    expect(cal).toHaveLength(3);
    const variants = [
      { name: 'off-by-0.1', answers: answers((i) => pOf(i) + 0.1) },
      { name: 'off-by-0.2', answers: answers((i) => pOf(i) - 0.2) },
      // perfect where it will be tested, bad where it is chosen: must not win
      { name: 'holdout-peeker', answers: answers((i) => (held.includes(i) ? pOf(i) : 0)) },
    ];
    const r = generalization(variants, human, { seed: 7, replicates: 200 });
    expect(r.holdoutItems).toEqual(held);
    expect(r.chosen).toBe('off-by-0.1');
    expect(r.calibration.find((c) => c.variant === 'off-by-0.1')?.tv).toBeCloseTo(0.1, 12);
    expect(r.holdout.estimate).toBeCloseTo(0.1, 12);
  });
});

describe('varianceDecomposition', () => {
  it('gives the known shares of an additive balanced design', () => {
    // value = ±1 (factor A) ± 0.5 (factor B) ± 0.1 (seed): SS 8, 2 and 0.08 of 10.08
    const obs: Observation[] = [];
    for (const a of [-1, 1])
      for (const b of [-0.5, 0.5])
        for (const e of [-0.1, 0.1]) obs.push({ factors: { A: String(a), B: String(b) }, value: a + b + e });
    const d = varianceDecomposition(obs, { seed: 1, replicates: 200 });
    expect(d.factors.map((f) => f.factor)).toEqual(['A', 'B']);
    expect(d.factors[0].share.estimate).toBeCloseTo(8 / 10.08, 12);
    expect(d.factors[1].share.estimate).toBeCloseTo(2 / 10.08, 12);
    expect(d.seed.estimate).toBeCloseTo(0.08 / 10.08, 12);
    expect(d.interaction.estimate).toBeCloseTo(0, 12);
    expect(d.variance).toBeCloseTo(10.08 / 8, 12);
    expect(d.factors[0].levels).toEqual([
      { level: '-1', n: 4, mean: -1 },
      { level: '1', n: 4, mean: 1 },
    ]);
  });

  it('puts a pure interaction in the interaction share, and the main effect CIs stay near 0', () => {
    const obs: Observation[] = [];
    for (const a of [-1, 1])
      for (const b of [-1, 1])
        for (const e of [-0.2, 0, 0.2])
          obs.push({ factors: { A: String(a), B: String(b) }, value: a * b + e });
    const d = varianceDecomposition(obs, { seed: 2, replicates: 200 });
    expect(d.factors[0].share.estimate).toBeCloseTo(0, 12);
    expect(d.interaction.estimate).toBeGreaterThan(0.9);
    expect(d.factors[0].share.lo).toBeCloseTo(0, 9);
    expect(d.factors[0].share.hi).toBeLessThan(0.2);
  });
});
