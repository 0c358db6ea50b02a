// The agents export's network measures against definitions computed here independently:
// degree from the edge list, local clustering by testing every pair of neighbours for an
// edge (Watts & Strogatz 1998), PageRank by power iteration of its defining equation.
import { UndirectedGraph } from 'graphology';
import { describe, expect, it } from 'vitest';
import { RngStreams } from '../../src/core/index.ts';
import { complete, erdosRenyi, fromGraphology, type Topology } from '../../src/network/index.ts';
import { localClustering, networkMeasures } from '../../src/report/index.ts';

function fromEdges(n: number, edges: [number, number][]): Topology {
  const g = new UndirectedGraph();
  for (let i = 0; i < n; i++) g.addNode(String(i));
  for (const [a, b] of edges) g.addEdge(String(a), String(b));
  return fromGraphology(g).topology;
}

function neighbours(t: Topology, i: number): number[] {
  const out: number[] = [];
  t.forEachNeighbour(i, (j) => {
    out.push(j);
  });
  return out;
}

/** C_i from its definition: the share of pairs of i's neighbours that are linked. */
function clusteringByPairs(t: Topology, i: number): number {
  const ns = neighbours(t, i);
  if (ns.length < 2) return 0;
  let pairs = 0;
  let links = 0;
  for (let a = 0; a < ns.length; a++) {
    const adj = new Set(neighbours(t, ns[a]));
    for (let b = a + 1; b < ns.length; b++) {
      pairs++;
      if (adj.has(ns[b])) links++;
    }
  }
  return links / pairs;
}

/** PageRank, damping d: PR_i = (1 − d)/n + d Σ_{j ~ i} PR_j / k_j, iterated to a fixed point. */
function pagerankByIteration(t: Topology, d = 0.85): number[] {
  const n = t.size;
  let pr = new Array<number>(n).fill(1 / n);
  for (let it = 0; it < 1000; it++) {
    const next = new Array<number>(n).fill((1 - d) / n);
    for (let j = 0; j < n; j++) for (const i of neighbours(t, j)) next[i] += (d * pr[j]) / t.degree(j);
    const change = next.reduce((s, v, i) => s + Math.abs(v - pr[i]), 0);
    pr = next;
    if (change < 1e-12) break;
  }
  return pr;
}

describe('network measures of the agents export', () => {
  it('a triangle with a tail: degrees, and clustering 1, 1, 1/3, 0', () => {
    const t = fromEdges(4, [
      [0, 1],
      [1, 2],
      [0, 2],
      [2, 3],
    ]);
    const m = networkMeasures(t);
    expect([...m.degree]).toEqual([2, 2, 3, 1]);
    expect([...m.clustering]).toEqual([1, 1, 1 / 3, 0]);
    const pr = m.pagerank!;
    expect(pr.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 6);
    // the agent with most links ranks first; the two alike rank alike
    expect(pr[2]).toBeGreaterThan(pr[0]);
    expect(pr[0]).toBeCloseTo(pr[1], 9);
  });

  it('a random network: every agent as its definitions give it', () => {
    const t = erdosRenyi({ n: 300, p: 0.04 }, new RngStreams(7).stream('network'));
    const m = networkMeasures(t);
    const expected = pagerankByIteration(t);
    let isolated = 0;
    for (let i = 0; i < t.size; i++) {
      expect(m.degree[i]).toBe(neighbours(t, i).length);
      expect(m.clustering[i]).toBeCloseTo(clusteringByPairs(t, i), 12);
      if (t.degree(i) === 0) isolated++;
      else expect(m.pagerank![i]).toBeCloseTo(expected[i], 5);
    }
    expect(isolated).toBeLessThan(3);
    expect(m.clustering.some((c) => c > 0)).toBe(true);
    expect(localClustering(t)).toEqual(m.clustering);
  });

  it('a complete network (never materialised): degree n − 1, clustering 1, equal ranks', () => {
    const m = networkMeasures(complete({ n: 50 }));
    expect(new Set(m.degree)).toEqual(new Set([49]));
    expect(new Set(m.clustering)).toEqual(new Set([1]));
    expect(m.pagerank![17]).toBeCloseTo(1 / 50, 12);
  });
});
