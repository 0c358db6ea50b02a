import { describe, expect, it } from 'vitest';
import { readHumanFile } from '../../src/validity/index.ts';

describe('shipped human reference data', () => {
  it('dictator-giving-taking.csv reads as six distributions whose sizes are the dataset cells', () => {
    const rows = readHumanFile('data/human/dictator-giving-taking.csv');
    const sizes = Object.fromEntries(rows.map((r) => [`${r.item} ${r.groupLabel}`, r.n]));
    expect(sizes).toEqual({
      'dictator_give all': 69,
      'dictator_give female=1': 32,
      'dictator_give female=0': 37,
      'dictator_take all': 68,
      'dictator_take female=1': 31,
      'dictator_take female=0': 37,
    });
    for (const r of rows) {
      expect(Object.keys(r.shares)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
      expect(r.source).toContain('probstats4econ');
    }
    // the groups add up to the whole, option by option
    for (const item of ['dictator_give', 'dictator_take']) {
      const [all, f, m] = ['all', 'female=1', 'female=0'].map((g) =>
        rows.find((r) => r.item === item && r.groupLabel === g),
      );
      for (const k of Object.keys(all?.shares ?? {}))
        expect((f?.shares[k] ?? 0) * (f?.n ?? 0) + (m?.shares[k] ?? 0) * (m?.n ?? 0)).toBeCloseTo(
          (all?.shares[k] ?? 0) * (all?.n ?? 0),
          9,
        );
    }
    // equal split is the mode when giving (25 of 69) and when taking (30 of 68)
    const give = rows.find((r) => r.item === 'dictator_give' && r.groupLabel === 'all');
    expect((give?.shares['5'] ?? 0) * 69).toBeCloseTo(25, 9);
  });
});
