import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import {
  bias,
  distinctN,
  diversity,
  type HumanDistribution,
  type SurveyAnswer,
  sycophancy,
} from '../../src/validity/index.ts';
import { draw } from './synthetic.ts';

const likert = { 1: 0.1, 2: 0.2, 3: 0.4, 4: 0.2, 5: 0.1 }; // mean 3, variance 1.2
const ref = (
  shares: Record<string, number>,
  group: Record<string, string> = {},
  label = 'all',
): HumanDistribution => ({
  item: 'q',
  group,
  groupLabel: label,
  shares,
  n: 500,
  source: 'planted',
});
const answer = (i: number, value: string | number, over: Partial<SurveyAnswer> = {}): SurveyAnswer => ({
  agent: `a${i}`,
  item: 'q',
  group: {},
  kind: typeof value === 'number' ? 'numeric' : 'choice',
  answer: value,
  phase: 'initial',
  ...over,
});
const within = (ci: { lo: number; hi: number }, x: number) => {
  expect(ci.lo).toBeLessThanOrEqual(x);
  expect(ci.hi).toBeGreaterThanOrEqual(x);
};

describe('diversity', () => {
  it('recovers a planted variance compression of 0.5', () => {
    const rng = new SeededStream('compress');
    const k = Math.sqrt(0.5);
    const sim = Array.from({ length: 3000 }, (_, i) => answer(i, 3 + k * (Number(draw(likert, rng)) - 3)));
    const [row] = diversity(sim, [ref(likert)], { seed: 1, replicates: 300 });
    within(row.varianceRatio, 0.5);
    expect(row.varianceRatio.hi - row.varianceRatio.lo).toBeLessThan(0.1);
    expect(row.distinctHuman).toBe(5);
  });

  it('entropy ratio near 1 for a faithful population, 0 for a collapsed one', () => {
    const rng = new SeededStream('faithful');
    const faithful = Array.from({ length: 3000 }, (_, i) => answer(i, draw(likert, rng), { kind: 'likert' }));
    const [f] = diversity(faithful, [ref(likert)], { seed: 2, replicates: 300 });
    // the plug-in entropy is biased low by about (K − 1)/(2n ln 2) bits (Miller 1955)
    expect(Math.abs(f.entropyRatio.estimate - 1)).toBeLessThan(0.02);
    within(f.varianceRatio, 1);
    expect(f.distinctSim).toBe(5);
    const collapsed = Array.from({ length: 100 }, (_, i) => answer(i, '3', { kind: 'likert' }));
    const [c] = diversity(collapsed, [ref(likert)], { seed: 2, replicates: 50 });
    expect(c.entropyRatio.estimate).toBeCloseTo(0, 12);
    expect(c.varianceRatio.estimate).toBe(0);
    expect(c.distinctSim).toBe(1);
  });

  it('distinct-n counts distinct n-grams over all n-grams', () => {
    expect(distinctN(['the cat sat', 'the cat ran'], 1)).toBeCloseTo(4 / 6, 12);
    expect(distinctN(['the cat sat', 'the cat ran'], 2)).toBeCloseTo(3 / 4, 12);
    expect(distinctN(['same words', 'same words'], 2)).toBeCloseTo(1 / 2, 12);
    expect(distinctN([''], 1)).toBe(0);
  });
});

describe('bias', () => {
  it('recovers a planted group error of +0.5 and the gap error it makes', () => {
    const rng = new SeededStream('bias');
    const human = { 1: 0.5, 3: 0.5 };
    const sim = Array.from({ length: 4000 }, (_, i) => {
      const gender = i % 2 ? 'f' : 'm';
      const planted = gender === 'f' ? 0.5 : 0;
      return answer(i, Number(draw(human, rng)) + planted, { group: { gender } });
    });
    const refs = [ref(human, { gender: 'f' }, 'gender=f'), ref(human, { gender: 'm' }, 'gender=m')];
    const r = bias(sim, refs, { seed: 1, replicates: 300 });
    within(r.groups[0].error, 0.5);
    within(r.groups[1].error, 0);
    expect(r.groups[1].error.lo).toBeLessThan(0.2);
    expect(r.gaps).toHaveLength(1);
    within(r.gaps[0].gapError, 0.5);
    expect(r.gaps[0].humanGap).toBe(0);
    expect(r.gaps[0].gapError.lo).toBeGreaterThan(0.3);
  });
});

describe('sycophancy', () => {
  it('recovers a planted flip probability of 0.30 toward the asserted opposite', () => {
    const rng = new SeededStream('flip');
    const sim: SurveyAnswer[] = [];
    for (let i = 0; i < 1500; i++) {
      const first = rng.next() < 0.6 ? 'yes' : 'no';
      const flip = rng.next() < 0.3;
      const opposite = first === 'yes' ? 'no' : 'yes';
      sim.push(answer(i, first), answer(i, flip ? opposite : first, { phase: 'pushback' }));
    }
    const r = sycophancy(sim, { target: (a) => (a.answer === 'yes' ? 'no' : 'yes') });
    expect(r.pairs).toBe(1500);
    within(r.flipRate, 0.3);
    within(r.adoption, 0.3);
    expect(r.flipRate.hi - r.flipRate.lo).toBeLessThan(0.06);
    expect(r.meanShift).toBeNaN();
  });

  it('gives the direction of flips on a numeric scale', () => {
    const sim = [
      answer(0, 40),
      answer(0, 30, { phase: 'pushback' }),
      answer(1, 50),
      answer(1, 50, { phase: 'pushback' }),
    ];
    const r = sycophancy(sim);
    expect(r).toMatchObject({ pairs: 2, up: 0, down: 1, meanShift: -5 });
    expect(r.flipRate.p).toBe(0.5);
    expect(r.adoption.p).toBeNaN();
  });
});
