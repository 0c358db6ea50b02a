import { describe, expect, it } from 'vitest';
import { ConfigError, SeededStream } from '../../src/core/index.ts';
import { CsrTopology, EdgeList } from '../../src/network/index.ts';
import { topologyContract } from './topology.case.ts';

describe('CsrTopology.fromEdges', () => {
  it('sorts rows, drops self loops and merges duplicates in either direction', () => {
    const t = CsrTopology.fromEdges('test', 5, [3, 0, 1, 2, 0, 4, 4], [0, 3, 1, 0, 1, 0, 0]);
    expect(Array.from(t.offsets)).toEqual([0, 4, 5, 6, 7, 8]);
    expect(Array.from(t.neighbours)).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
    expect(Array.from(t.neighboursOf(0))).toEqual([1, 2, 3, 4]);
    expect(t.edgeCount).toBe(4);
    expect(t.size).toBe(5);
    expect(t.kind).toBe('test');
    expect(t.byteLength).toBe(6 * 4 + 8 * 4);
  });

  it('does not depend on the order of the input edges', () => {
    const rng = new SeededStream('order');
    const src = Int32Array.from({ length: 500 }, () => rng.int(100));
    const dst = Int32Array.from({ length: 500 }, () => rng.int(100));
    const a = CsrTopology.fromEdges('t', 100, src, dst);
    const perm = rng.shuffle(Int32Array.from({ length: 500 }, (_, i) => i)) as Int32Array;
    const b = CsrTopology.fromEdges(
      't',
      100,
      perm.map((e) => dst[e]),
      perm.map((e) => src[e]),
    );
    expect(b.offsets).toEqual(a.offsets);
    expect(b.neighbours).toEqual(a.neighbours);
  });

  it('handles empty graphs and isolated nodes', () => {
    expect(CsrTopology.fromEdges('t', 0, [], []).size).toBe(0);
    const t = CsrTopology.fromEdges('t', 3, [1], [1]);
    expect(t.edgeCount).toBe(0);
    expect(t.degree(1)).toBe(0);
    expect(t.randomNeighbour(1, new SeededStream('x'))).toBe(-1);
  });

  it('finds edges by binary search', () => {
    const t = CsrTopology.fromEdges('t', 10, [0, 0, 0, 0], [2, 4, 6, 8]);
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((j) => t.hasEdge(0, j))).toEqual([2, 4, 6, 8]);
    expect(t.hasEdge(8, 0)).toBe(true);
    expect(t.hasEdge(8, 2)).toBe(false);
  });

  it('draws every neighbour with roughly equal frequency', () => {
    const t = CsrTopology.fromEdges('t', 5, [0, 0, 0, 0], [1, 2, 3, 4]);
    const rng = new SeededStream('uniform');
    const counts = [0, 0, 0, 0, 0];
    for (let i = 0; i < 40_000; i++) counts[t.randomNeighbour(0, rng)]++;
    expect(counts[0]).toBe(0);
    for (const c of counts.slice(1)) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });

  it('rejects endpoints out of range and mismatched arrays with a ConfigError', () => {
    expect(() => CsrTopology.fromEdges('t', 3, [0], [3])).toThrow(ConfigError);
    expect(() => CsrTopology.fromEdges('t', 3, [0], [3])).toThrow(/edge 0 \(0, 3\).*outside \[0, 3\)/);
    expect(() => CsrTopology.fromEdges('t', 3, [0, 1], [1])).toThrow(/2 sources but 1 targets/);
    expect(() => CsrTopology.fromEdges('t', 3, [0.5], [1])).toThrow(ConfigError);
    expect(() => CsrTopology.fromEdges('t', -1, [], [])).toThrow(/size/);
  });
});

describe('CsrTopology.fromOwnedEdges', () => {
  it('with degrees, fills the same sorted rows as fromEdges and leaves the degrees as given', () => {
    // a simple graph, two edges owned by each node: u joins u+1 and a random node
    const rng = new SeededStream('owned');
    const n = 500;
    const far = new Int32Array(2 * n);
    const degrees = new Int32Array(n + 1);
    const seen = new Set<string>();
    const key = (a: number, b: number) => (a < b ? `${a} ${b}` : `${b} ${a}`);
    for (let u = 0; u < n; u++) {
      far[2 * u] = (u + 1) % n;
      seen.add(key(u, far[2 * u]));
    }
    for (let u = 0; u < n; u++) {
      let w = rng.int(n);
      while (w === u || seen.has(key(u, w))) w = rng.int(n);
      seen.add(key(u, w));
      far[2 * u + 1] = w;
    }
    for (let e = 0; e < far.length; e++) {
      degrees[e >> 1]++;
      degrees[far[e]]++;
    }
    const given = degrees.slice();
    const owned = CsrTopology.fromOwnedEdges('owned', n, 2, far, degrees);
    const src = Int32Array.from(far, (_, e) => e >> 1);
    const pairs = CsrTopology.fromEdges('owned', n, src, far);
    expect(Array.from(owned.offsets)).toEqual(Array.from(pairs.offsets));
    expect(Array.from(owned.neighbours)).toEqual(Array.from(pairs.neighbours));
    expect(Array.from(degrees)).toEqual(Array.from(given));
  });
});

describe('EdgeList', () => {
  it('grows past its initial capacity and builds the same topology as fromEdges', () => {
    const list = new EdgeList(1);
    for (let i = 0; i < 100; i++) list.push(i, (i + 1) % 100);
    expect(list.length).toBe(100);
    const t = list.toTopology('ring', 100);
    expect(t.edgeCount).toBe(100);
    expect(t.neighbours).toEqual(
      CsrTopology.fromEdges('ring', 100, list.sources(), list.targets()).neighbours,
    );
  });
});

describe('CsrTopology contract', () => {
  const rng = new SeededStream('contract-graph');
  const src = Array.from({ length: 3000 }, () => rng.int(400));
  const dst = Array.from({ length: 3000 }, () => rng.int(400));
  topologyContract(() => CsrTopology.fromEdges('random', 400, src, dst));
});
