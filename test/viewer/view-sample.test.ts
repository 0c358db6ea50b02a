import { describe, expect, it } from 'vitest';
import { sampleNetwork } from '../../src/cli/commands/view/view-sample.ts';
import { ringLattice } from '../../src/network/index.ts';

describe('the viewer network sample', () => {
  it('draws everyone in small runs, with every edge once', () => {
    const s = sampleNetwork(10, ringLattice({ n: 10, k: 2 }), 100);
    expect(s.sampled).toBe(false);
    expect(s.nodes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(s.edges.length).toBe(10);
  });

  it('samples large runs: the origins and their neighbourhoods breadth first, then a stride', () => {
    const ring = ringLattice({ n: 1000, k: 2 });
    const s = sampleNetwork(1000, ring, 40, [500]);
    expect(s.sampled).toBe(true);
    expect(s.nodes.length).toBe(40);
    // half by breadth first around agent 500: 490..509, a path of 19 edges
    for (let a = 490; a < 510; a++) expect(s.nodes).toContain(a);
    expect(s.edges.length).toBeGreaterThanOrEqual(19);
    for (const [i, j] of s.edges) expect(ring.hasEdge(s.nodes[i], s.nodes[j])).toBe(true);
    expect(sampleNetwork(1000, ring, 40, [500])).toEqual(s);
  });
});
