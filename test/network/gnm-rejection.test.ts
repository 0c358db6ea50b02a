import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import { CsrTopology, erdosRenyi } from '../../src/network/index.ts';

/** G(n, m) by the definition: draw pairs, keep each new one with u != v, until m are kept. */
function reference(n: number, m: number, rng: SeededStream): CsrTopology {
  const kept = new Set<string>();
  const src: number[] = [];
  const dst: number[] = [];
  while (src.length < m) {
    const u = rng.int(n);
    const v = rng.int(n);
    const key = u < v ? `${u},${v}` : `${v},${u}`;
    if (u === v || kept.has(key)) continue;
    kept.add(key);
    src.push(u);
    dst.push(v);
  }
  return CsrTopology.fromEdges('erdos-renyi', n, src, dst);
}

describe('erdosRenyi G(n, m), sparse branch', () => {
  it.each([
    [60, 885, 'near half density: many repeated draws'],
    [500, 3000, 'a few repeats'],
    [30, 1, 'one edge'],
    [30, 0, 'no edge'],
  ])('n=%i m=%i (%s): the graph of drawing and rejecting one pair at a time', (n, m) => {
    const seed = `gnm-${n}-${m}`;
    const ours = new SeededStream(seed);
    const theirs = new SeededStream(seed);
    const got = erdosRenyi({ n, m }, ours);
    const want = reference(n, m, theirs);
    expect(ours.next()).toBe(theirs.next()); // the same number of draws
    expect(got.edgeCount).toBe(m);
    expect(Array.from(got.offsets)).toEqual(Array.from(want.offsets));
    expect(Array.from(got.neighbours)).toEqual(Array.from(want.neighbours));
  });
});
