import { describe, expect, it } from 'vitest';
import { ConfigError, type GrapevineError, SeededStream } from '../../src/core/index.ts';
import { ringLattice, wattsStrogatz } from '../../src/network/index.ts';
import { topologyContract } from './topology.case.ts';

function thrown(fn: () => unknown): GrapevineError {
  try {
    fn();
  } catch (err) {
    return err as GrapevineError;
  }
  throw new Error('expected a throw');
}

describe('ringLattice', () => {
  it('gives every agent degree exactly k, linked to its k/2 nearest on each side', () => {
    const t = ringLattice({ n: 50, k: 6 });
    expect(t.kind).toBe('ring-lattice');
    expect(t.edgeCount).toBe(150);
    for (let i = 0; i < 50; i++) expect(t.degree(i)).toBe(6);
    expect(Array.from(t.neighboursOf(0))).toEqual([1, 2, 3, 47, 48, 49]);
    expect(Array.from(t.neighboursOf(25))).toEqual([22, 23, 24, 26, 27, 28]);
  });

  it('allows k = 0 and k = n - 1', () => {
    expect(ringLattice({ n: 5, k: 0 }).edgeCount).toBe(0);
    expect(ringLattice({ n: 5, k: 4 }).edgeCount).toBe(10);
  });

  it('rejects odd k or k >= n with a hint', () => {
    const err = thrown(() => ringLattice({ n: 10, k: 3 }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/ring-lattice: k must be even and less than n, got k=3, n=10/);
    expect(err.hint).toBe('ring-lattice needs k even and < n');
    expect(() => ringLattice({ n: 10, k: 10 })).toThrow(/k must be even and less than n/);
    expect(() => ringLattice({ n: 10, k: -2 })).toThrow(/k must be an integer/);
  });

  describe('contract', () => {
    topologyContract(() => ringLattice({ n: 300, k: 8 }));
  });
});

describe('wattsStrogatz', () => {
  const params = { n: 2000, k: 10, beta: 0.2 };

  it('is deterministic for a seed and differs between seeds', () => {
    const a = wattsStrogatz(params, new SeededStream('seed-1'));
    const b = wattsStrogatz(params, new SeededStream('seed-1'));
    const c = wattsStrogatz(params, new SeededStream('seed-2'));
    expect(b.offsets).toEqual(a.offsets);
    expect(b.neighbours).toEqual(a.neighbours);
    expect(c.neighbours).not.toEqual(a.neighbours);
  });

  it('equals the ring lattice when beta = 0', () => {
    const ws = wattsStrogatz({ n: 500, k: 8, beta: 0 }, new SeededStream('s'));
    const ring = ringLattice({ n: 500, k: 8 });
    expect(ws.offsets).toEqual(ring.offsets);
    expect(ws.neighbours).toEqual(ring.neighbours);
  });

  it('preserves the edge count n*k/2 at every beta', () => {
    for (const beta of [0.05, 0.3, 1]) {
      const t = wattsStrogatz({ ...params, beta }, new SeededStream(`b${beta}`));
      expect(t.edgeCount).toBe((params.n * params.k) / 2);
    }
  });

  it('rewires about a fraction beta of the lattice edges', () => {
    const ring = ringLattice({ n: 2000, k: 10 });
    const t = wattsStrogatz(params, new SeededStream('frac'));
    let kept = 0;
    for (let i = 0; i < ring.size; i++)
      ring.forEachNeighbour(i, (j) => void (j > i && t.hasEdge(i, j) && kept++));
    const rewired = 1 - kept / ring.edgeCount;
    expect(rewired).toBeGreaterThan(0.17);
    expect(rewired).toBeLessThan(0.23);
  });

  it('terminates when agents are already linked to everyone', () => {
    const t = wattsStrogatz({ n: 5, k: 4, beta: 1 }, new SeededStream('full'));
    expect(t.edgeCount).toBe(10);
  });

  it('rejects bad parameters naming the parameter', () => {
    expect(thrown(() => wattsStrogatz({ n: 10, k: 3, beta: 0.1 }, new SeededStream('x'))).hint).toBe(
      'watts-strogatz needs k even and < n',
    );
    expect(() => wattsStrogatz({ n: 10, k: 4, beta: 1.5 }, new SeededStream('x'))).toThrow(
      /watts-strogatz: beta must be a probability in \[0, 1\], got 1.5/,
    );
    expect(() => wattsStrogatz({ n: 0, k: 0, beta: 0 }, new SeededStream('x'))).toThrow(/n must be/);
  });

  describe('contract', () => {
    topologyContract(() => wattsStrogatz({ n: 400, k: 6, beta: 0.5 }, new SeededStream('contract')));
  });
});
