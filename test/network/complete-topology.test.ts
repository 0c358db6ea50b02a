import { describe, expect, it } from 'vitest';
import { ConfigError, SeededStream } from '../../src/core/index.ts';
import { CompleteTopology, complete } from '../../src/network/index.ts';
import { topologyContract } from './topology.case.ts';

describe('CompleteTopology', () => {
  it('enumerates every other agent in ascending order', () => {
    const t = complete({ n: 5 });
    expect(t.kind).toBe('complete');
    expect(t.degree(2)).toBe(4);
    const row: number[] = [];
    t.forEachNeighbour(2, (j) => row.push(j));
    expect(row).toEqual([0, 1, 3, 4]);
    expect([0, 1, 2, 3].map((k) => t.neighbour(0, k))).toEqual([1, 2, 3, 4]);
    expect([0, 1, 2, 3].map((k) => t.neighbour(4, k))).toEqual([0, 1, 2, 3]);
  });

  it('counts n(n-1)/2 edges and stores nothing', () => {
    const t = new CompleteTopology(1_000_000);
    expect(t.edgeCount).toBe(499_999_500_000);
    expect(t.byteLength).toBe(0);
    expect(new CompleteTopology(1).edgeCount).toBe(0);
    expect(t.hasEdge(0, 999_999)).toBe(true);
    expect(t.hasEdge(7, 7)).toBe(false);
    expect(t.hasEdge(0, 1_000_000)).toBe(false);
  });

  it('never draws the agent itself, and draws the others uniformly', () => {
    const t = complete({ n: 4 });
    const rng = new SeededStream('complete');
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 30_000; i++) counts[t.randomNeighbour(1, rng)]++;
    expect(counts[1]).toBe(0);
    for (const j of [0, 2, 3]) expect(Math.abs(counts[j] - 10_000)).toBeLessThan(500);
    for (let i = 0; i < 1000; i++) {
      const a = rng.int(4);
      expect(t.randomNeighbour(a, rng)).not.toBe(a);
    }
  });

  it('has no neighbour to draw for a population of one', () => {
    expect(complete({ n: 1 }).randomNeighbour(0, new SeededStream('x'))).toBe(-1);
  });

  it('rejects a bad n', () => {
    expect(() => complete({ n: 0 })).toThrow(ConfigError);
    expect(() => complete({ n: 2.5 })).toThrow(/complete: n must be an integer >= 1, got 2.5/);
  });

  describe('contract', () => {
    topologyContract(() => complete({ n: 60 }));
  });
});
