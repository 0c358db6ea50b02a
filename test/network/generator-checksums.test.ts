import { describe, expect, it } from 'vitest';
import { RngStreams, SeededStream } from '../../src/core/index.ts';
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

// Recorded from the generators as they were before their typed-array rewrites (commit 826c228):
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

// Recorded from the blocked build, before the Watts-Strogatz rows were filled in place over the
// lattice's far ends: the graph and the network stream's next draw after it, on the `network`
// stream of a run's seed, as worlds build it.
const WS_RECORDED: [n: number, k: number, beta: number, seed: number, sum: string, next: number][] = [
  [100000, 10, 0.1, 1, '100000:500000:6f7f1999', 0.38133397811962366],
  [100000, 10, 0.1, 2, '100000:500000:52821e0f', 0.6891887246353843],
  [100000, 10, 0.1, 3, '100000:500000:e46a88c3', 0.43661013932682247],
  [30000, 20, 0.3, 4, '30000:300000:762b8689', 0.15703508735888794],
  [5000, 4, 1, 5, '5000:10000:c34123ed', 0.4639320979036309],
  [301, 298, 0.5, 6, '301:44849:ccd3c8c1', 0.9046413238761665],
  [400, 200, 0.7, 13, '400:40000:38927395', 0.3552451016122864],
  [64, 62, 1, 7, '64:1984:734c66dd', 0.5947547926715766],
  [1000, 2, 0.05, 8, '1000:1000:e0c5e405', 0.5588768766140312],
  [12345, 16, 0.01, 9, '12345:98760:5da0ab77', 0.498492859990884],
  [3, 2, 1, 10, '3:3:d660066f', 0.20713606350503977],
  [1, 0, 1, 11, '1:0:117697cd', 0.11909184667526596],
  [40000, 10, 0, 12, '40000:200000:fe5dd12b', 0.17484881632052585],
];

describe('Watts-Strogatz gives the graphs recorded before its in-place build', () => {
  it.each(WS_RECORDED)('WS(%i, %i, %d), seed %i', (n, k, beta, seed, sum, next) => {
    const rng = new RngStreams(seed).stream('network');
    expect(checksum(wattsStrogatz({ n, k, beta }, rng))).toBe(sum);
    expect(rng.next()).toBe(next);
  });

  it.each([
    [100000, 10, '100000:500000:c541d0eb'],
    [999, 6, '999:2997:15d2416b'],
    [5, 4, '5:10:c0bbae01'],
    [1, 0, '1:0:117697cd'],
  ])('ring lattice (%i, %i)', (n, k, sum) => {
    expect(checksum(ringLattice({ n, k }))).toBe(sum);
  });
});
