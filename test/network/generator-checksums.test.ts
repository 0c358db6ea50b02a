import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import {
  barabasiAlbert,
  CsrTopology,
  erdosRenyi,
  ringLattice,
  stochasticBlockModel,
  wattsStrogatz,
} from '../../src/network/index.ts';

/** FNV-1a over the CSR arrays: equal iff the graphs (with their row order) are equal. */
function checksum(t: CsrTopology): string {
  let h = 0x811c9dc5;
  for (const a of [t.offsets, t.neighbours])
    for (let i = 0; i < a.length; i++) h = Math.imul(h ^ a[i], 0x01000193) >>> 0;
  return `${t.size}:${t.edgeCount}:${h.toString(16).padStart(8, '0')}`;
}

// Recorded from the generators before the typed-array rewrites of session 4 (commit 826c228):
// the same seed must keep giving the same graph, or worlds' digests would change.
const CASES: [string, () => CsrTopology, string][] = [
  [
    'WS(2000, 10, 0.1)',
    () => wattsStrogatz({ n: 2000, k: 10, beta: 0.1 }, new SeededStream('g1')),
    '2000:10000:5fd54c35',
  ],
  [
    'WS(300, 6, 1)',
    () => wattsStrogatz({ n: 300, k: 6, beta: 1 }, new SeededStream('g2')),
    '300:900:3f0daed9',
  ],
  ['WS(7, 6, 0.5)', () => wattsStrogatz({ n: 7, k: 6, beta: 0.5 }, new SeededStream('g3')), '7:21:b75796ab'],
  ['WS(50, 4, 0)', () => wattsStrogatz({ n: 50, k: 4, beta: 0 }, new SeededStream('g4')), '50:100:621ba40f'],
  [
    'G(2000, m=10000)',
    () => erdosRenyi({ n: 2000, m: 10000 }, new SeededStream('g5')),
    '2000:10000:24d18ddb',
  ],
  ['G(40, m=700)', () => erdosRenyi({ n: 40, m: 700 }, new SeededStream('g6')), '40:700:7da4153b'],
  [
    'G(2000, p=0.005)',
    () => erdosRenyi({ n: 2000, p: 0.005 }, new SeededStream('g7')),
    '2000:10166:1fbea1a3',
  ],
  ['BA(2000, 5)', () => barabasiAlbert({ n: 2000, m: 5 }, new SeededStream('g8')), '2000:9985:fc466b75'],
  ['BA(30, 29)', () => barabasiAlbert({ n: 30, m: 29 }, new SeededStream('g9')), '30:435:b996986d'],
  [
    'SBM([700, 1300])',
    () =>
      stochasticBlockModel(
        {
          sizes: [700, 1300],
          p: [
            [0.01, 0.001],
            [0.001, 0.006],
          ],
        },
        new SeededStream('g10'),
      ),
    '2000:8435:0cbc8019',
  ],
];

describe('network generators give the same graph for the same seed as before', () => {
  it.each(CASES)('%s', (_name, build, expected) => {
    expect(checksum(build())).toBe(expected);
  });
});

describe('the lattice built from owned edges', () => {
  it.each([
    [1, 0],
    [9, 4],
    [10, 8],
    [1000, 10],
  ])('ring lattice (%i, %i) equals fromEdges over the explicit edge list', (n, k) => {
    const src: number[] = [];
    const dst: number[] = [];
    for (let u = 0; u < n; u++)
      for (let d = 1; d <= k / 2; d++) {
        src.push(u);
        dst.push((u + d) % n);
      }
    expect(checksum(ringLattice({ n, k }))).toBe(
      checksum(CsrTopology.fromEdges('ring-lattice', n, src, dst)),
    );
  });
});
