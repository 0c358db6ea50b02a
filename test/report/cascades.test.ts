import { describe, expect, it } from 'vitest';
import { buildCascades, summarizeCascade } from '../../src/report/cascades.ts';
import { compareAtMatchedSize } from '../../src/report/matched-size.ts';

// agent:      0  1  2  3   4  5  6  7  8
const src = [0, 0, 1, 0, -1, -1, 5, 4, 3];
const at = [0, 1, 2, 1, -1, 2, 3, 4, 3];
// 0 is an origin (told itself), 5 an origin with no teller; 4 never heard;
// 7 names 4 as its teller although 4 never heard: an orphan.

describe('buildCascades', () => {
  const x = buildCascades('fact', src, at);

  it('finds one tree per origin and counts orphans', () => {
    expect(x.cascades.map((c) => c.root)).toEqual([0, 5]);
    expect(x.cascades.map((c) => c.nodes.length)).toEqual([5, 2]);
    expect(x.orphans).toBe(1);
  });

  it('orders nodes by first hearing with parents first', () => {
    const c = x.cascades[0];
    expect([...c.nodes]).toEqual([0, 1, 3, 2, 8]);
    expect([...c.parent]).toEqual([-1, 0, 0, 1, 2]);
    expect([...c.time]).toEqual([0, 1, 1, 2, 3]);
  });

  it('summarizes size, depth, breadth, virality and time to reach k', () => {
    // tree 0-(1-2, 3-8): distances 0-1 1, 0-3 1, 0-2 2, 0-8 2, 1-3 2, 1-2 1, 1-8 3, 3-2 3, 3-8 1, 2-8 4 = 20
    const s = summarizeCascade(x.cascades[0]);
    expect(s).toMatchObject({ root: 0, rootTime: 0, size: 5, depth: 2, maxBreadth: 2, virality: 2 });
    expect(s.timeToReach).toEqual({ 1: 0 });
    const t = summarizeCascade(x.cascades[1]);
    expect(t).toMatchObject({ root: 5, rootTime: 2, size: 2, depth: 1, maxBreadth: 1, virality: 1 });
  });

  it('times to reach 1 and 10 agents count from the origin', () => {
    const n = 12;
    const chainSrc = Array.from({ length: n }, (_, i) => (i === 0 ? 0 : i - 1));
    const chainAt = Array.from({ length: n }, (_, i) => 3 + 2 * i);
    const s = summarizeCascade(buildCascades('x', chainSrc, chainAt).cascades[0]);
    expect(s.timeToReach).toEqual({ 1: 0, 10: 18 });
    expect(s.virality).toBeCloseTo(13 / 3, 12);
  });
});

describe('compareAtMatchedSize', () => {
  it('compares a chain and a star cut to their first 10 agents', () => {
    const n = 15;
    const chain = buildCascades(
      'rumor',
      Array.from({ length: n }, (_, i) => Math.max(0, i - 1)),
      [...Array.from({ length: n }, (_, i) => i)],
    );
    const star = buildCascades(
      'fact',
      Array.from({ length: n }, () => 0),
      Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1)),
    );
    const m = compareAtMatchedSize([star, chain]);
    const prefix = m.find((r) => r.kind === 'prefix' && r.k === 10)!;
    expect(prefix.rows).toEqual([
      { item: 'fact', cascades: 1, meanDepth: 1, meanMaxBreadth: 9, meanVirality: 1.8 },
      { item: 'rumor', cascades: 1, meanDepth: 9, meanMaxBreadth: 1, meanVirality: 11 / 3 },
    ]);
    const bin = m.find((r) => r.kind === 'bin' && r.k === 10)!;
    expect(bin.rows.map((r) => r.meanVirality)).toEqual([(2 * 14) / 15, 16 / 3]);
  });
});
