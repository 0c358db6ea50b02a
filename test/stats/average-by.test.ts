import { describe, expect, it } from 'vitest';
import { averageBy } from '../../src/stats/index.ts';

describe('averageBy', () => {
  it('averages within clusters and returns keys in sorted order', () => {
    const rows = [
      { scenario: 'b', d: 2 },
      { scenario: 'a', d: 1 },
      { scenario: 'b', d: 5 },
      { scenario: 'c', d: -3 },
      { scenario: 'b', d: 2 },
    ];
    const m = averageBy(
      rows,
      (r) => r.scenario,
      (r) => r.d,
    );
    expect([...m.entries()]).toEqual([
      ['a', 1],
      ['b', 3],
      ['c', -3],
    ]);
    expect(averageBy([], String, Number).size).toBe(0);
  });

  it('sorts by code unit, not locale', () => {
    const m = averageBy(
      ['b', 'B', 'a', 'Z'],
      (s) => s,
      () => 1,
    );
    expect([...m.keys()]).toEqual(['B', 'Z', 'a', 'b']);
  });
});
