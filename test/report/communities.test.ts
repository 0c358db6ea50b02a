import { UndirectedGraph } from 'graphology';
import { describe, expect, it } from 'vitest';
import { fromGraphology } from '../../src/network/index.ts';
import {
  communityAsymmetry,
  type FinalState,
  louvainCommunities,
  reportCommunities,
  sbmBlocks,
} from '../../src/report/index.ts';

/** Two 5-cliques (agents 0-4 and 5-9) joined by the single edge 4-5. */
function barbell() {
  const g = new UndirectedGraph();
  for (let i = 0; i < 10; i++) g.addNode(String(i));
  for (const base of [0, 5])
    for (let i = base; i < base + 5; i++)
      for (let j = i + 1; j < base + 5; j++) g.addEdge(String(i), String(j));
  g.addEdge('4', '5');
  return fromGraphology(g).topology;
}

describe('report communities', () => {
  it('Louvain finds the two cliques of a barbell with Newman modularity 2(10/21 - (21/42)^2)', () => {
    const c = louvainCommunities(barbell(), 7);
    expect(c.count).toBe(2);
    expect([...c.of]).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    expect(c.modularity).toBeCloseTo(2 * (10 / 21 - 0.25), 10);
    expect([...louvainCommunities(barbell(), 7).of]).toEqual([...c.of]);
  });

  it('uses the blocks of a stochastic block model when the parameters give them', () => {
    const c = reportCommunities(barbell(), { network: 'stochastic-block-model', sizes: [3, 7] }, 1);
    expect(c?.method).toBe('sbm-blocks');
    expect([...(c?.of ?? [])]).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 1, 1]);
    expect(sbmBlocks([2, 1]).count).toBe(2);
  });

  it('counts who heard which item in each community', () => {
    const state: FinalState = {
      tick: 5,
      size: 6,
      regions: new Map(),
      slots: new Map<string, ArrayLike<number>>([
        ['at_a', [0, 2, -1, -1, 3, -1]],
        ['at_b', [1, -1, 4, -1, 0, -1]],
      ]),
    };
    const rows = communityAsymmetry(state, sbmBlocks([3, 3]), 'a', 'b');
    expect(rows).toEqual([
      { community: 0, size: 3, onlyA: 1, onlyB: 1, both: 1, neither: 0 },
      { community: 1, size: 3, onlyA: 0, onlyB: 0, both: 1, neither: 2 },
    ]);
  });
});
