import { describe, expect, it } from 'vitest';
import { ConfigError, SeededStream } from '../../src/core/index.ts';
import {
  barabasiAlbert,
  type CsrTopology,
  erdosRenyi,
  stochasticBlockModel,
} from '../../src/network/index.ts';
import { topologyContract } from './topology.case.ts';

const rng = (seed: string) => new SeededStream(seed);

function expectSame(a: CsrTopology, b: CsrTopology): void {
  expect(b.offsets).toEqual(a.offsets);
  expect(b.neighbours).toEqual(a.neighbours);
}

describe('erdosRenyi G(n, p)', () => {
  it('has mean degree close to p(n-1)', () => {
    const n = 20_000;
    const p = 0.001;
    const t = erdosRenyi({ n, p }, rng('er'));
    const mean = (2 * t.edgeCount) / n;
    expect(Math.abs(mean - p * (n - 1)) / (p * (n - 1))).toBeLessThan(0.02);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const params = { n: 3000, p: 0.004 };
    expectSame(erdosRenyi(params, rng('a')), erdosRenyi(params, rng('a')));
    expect(erdosRenyi(params, rng('b')).neighbours).not.toEqual(erdosRenyi(params, rng('a')).neighbours);
  });

  it('gives the empty graph at p = 0 and the complete graph at p = 1', () => {
    expect(erdosRenyi({ n: 50, p: 0 }, rng('x')).edgeCount).toBe(0);
    expect(erdosRenyi({ n: 50, p: 1 }, rng('x')).edgeCount).toBe(1225);
  });

  it('rejects a bad p, or both or neither of p and m', () => {
    expect(() => erdosRenyi({ n: 10, p: -0.1 }, rng('x'))).toThrow(/erdos-renyi: p must be a probability/);
    expect(() => erdosRenyi({ n: 10, p: 0.1, m: 3 } as never, rng('x'))).toThrow(/exactly one of p/);
    expect(() => erdosRenyi({ n: 10 } as never, rng('x'))).toThrow(ConfigError);
  });

  describe('contract', () => {
    topologyContract(() => erdosRenyi({ n: 500, p: 0.02 }, rng('contract')));
  });
});

describe('erdosRenyi G(n, m)', () => {
  it('has exactly m edges, sparse or dense', () => {
    expect(erdosRenyi({ n: 1000, m: 4321 }, rng('gnm')).edgeCount).toBe(4321);
    expect(erdosRenyi({ n: 40, m: 700 }, rng('dense')).edgeCount).toBe(700);
    expect(erdosRenyi({ n: 40, m: 780 }, rng('full')).edgeCount).toBe(780);
    expect(erdosRenyi({ n: 40, m: 0 }, rng('none')).edgeCount).toBe(0);
  });

  it('is deterministic for a seed', () => {
    expectSame(erdosRenyi({ n: 1000, m: 3000 }, rng('a')), erdosRenyi({ n: 1000, m: 3000 }, rng('a')));
    expectSame(erdosRenyi({ n: 40, m: 600 }, rng('a')), erdosRenyi({ n: 40, m: 600 }, rng('a')));
  });

  it('rejects m above n(n-1)/2', () => {
    expect(() => erdosRenyi({ n: 10, m: 46 }, rng('x'))).toThrow(/m must be an integer in \[0, 45\]/);
  });

  describe('contract', () => {
    topologyContract(() => erdosRenyi({ n: 300, m: 2000 }, rng('contract')));
  });
});

describe('barabasiAlbert', () => {
  it('has m(m+1)/2 + m(n-m-1) edges and minimum degree m', () => {
    const n = 5000;
    const m = 3;
    const t = barabasiAlbert({ n, m }, rng('ba'));
    expect(t.edgeCount).toBe((m * (m + 1)) / 2 + m * (n - m - 1));
    let min = Number.POSITIVE_INFINITY;
    let max = 0;
    for (let i = 0; i < n; i++) {
      min = Math.min(min, t.degree(i));
      max = Math.max(max, t.degree(i));
    }
    expect(min).toBe(m);
    expect(max).toBeGreaterThan(15 * m); // heavy tail: hubs emerge
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expectSame(barabasiAlbert({ n: 2000, m: 2 }, rng('a')), barabasiAlbert({ n: 2000, m: 2 }, rng('a')));
    expect(barabasiAlbert({ n: 2000, m: 2 }, rng('b')).neighbours).not.toEqual(
      barabasiAlbert({ n: 2000, m: 2 }, rng('a')).neighbours,
    );
  });

  it('rejects m outside [1, n)', () => {
    expect(() => barabasiAlbert({ n: 10, m: 10 }, rng('x'))).toThrow(
      /barabasi-albert: m must be an integer in \[1, 9\]/,
    );
    expect(() => barabasiAlbert({ n: 10, m: 0 }, rng('x'))).toThrow(ConfigError);
  });

  describe('contract', () => {
    topologyContract(() => barabasiAlbert({ n: 400, m: 4 }, rng('contract')));
  });
});

describe('stochasticBlockModel', () => {
  const params = {
    sizes: [1000, 1500],
    p: [
      [0.02, 0.002],
      [0.002, 0.01],
    ],
  };

  it('has within- and between-block densities close to p', () => {
    const t = stochasticBlockModel(params, rng('sbm'));
    const block = (i: number) => (i < 1000 ? 0 : 1);
    const counts = [
      [0, 0],
      [0, 0],
    ];
    for (let i = 0; i < t.size; i++)
      t.forEachNeighbour(i, (j) => {
        if (j > i) counts[block(i)][block(j)]++;
      });
    const density = (a: number, b: number, pairs: number) =>
      (counts[a][b] + counts[b][a]) / pairs / (a === b ? 2 : 1);
    const near = (actual: number, expected: number) =>
      expect(Math.abs(actual - expected) / expected).toBeLessThan(0.05);
    near(density(0, 0, (1000 * 999) / 2), 0.02);
    near(density(1, 1, (1500 * 1499) / 2), 0.01);
    near(density(0, 1, 1000 * 1500), 0.002);
    expect(counts[1][0]).toBe(0);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    expectSame(stochasticBlockModel(params, rng('a')), stochasticBlockModel(params, rng('a')));
    expect(stochasticBlockModel(params, rng('b')).neighbours).not.toEqual(
      stochasticBlockModel(params, rng('a')).neighbours,
    );
  });

  it('rejects a matrix of the wrong shape, asymmetric or out of range', () => {
    const r = rng('x');
    expect(() => stochasticBlockModel({ sizes: [10, 10], p: [[0.1, 0.1]] }, r)).toThrow(
      /p must have 2 rows \(one per block\), got 1/,
    );
    expect(() => stochasticBlockModel({ sizes: [10, 10], p: [[0.1, 0.1], [0.1]] }, r)).toThrow(
      /p\[1\] must have 2 entries/,
    );
    expect(() =>
      stochasticBlockModel(
        {
          sizes: [10, 10],
          p: [
            [0.1, 0.2],
            [0.3, 0.1],
          ],
        },
        r,
      ),
    ).toThrow(/p must be symmetric, but p\[0\]\[1\]=0.2 and p\[1\]\[0\]=0.3/);
    expect(() => stochasticBlockModel({ sizes: [10], p: [[2]] }, r)).toThrow(
      /p\[0\]\[0\] must be a probability/,
    );
    expect(() => stochasticBlockModel({ sizes: [], p: [] }, r)).toThrow(/sizes must be a non-empty array/);
    expect(() => stochasticBlockModel({ sizes: [10, 0], p: [[0], [0]] }, r)).toThrow(/sizes\[1\] must be/);
  });

  describe('contract', () => {
    topologyContract(() =>
      stochasticBlockModel(
        {
          sizes: [100, 200, 50],
          p: [
            [0.1, 0.01, 0],
            [0.01, 0.05, 0.02],
            [0, 0.02, 1],
          ],
        },
        rng('contract'),
      ),
    );
  });
});
