import { describe, expect, it } from 'vitest';
import { treeStats } from '../../src/report/cascade-stats.ts';

/** Mean distance over all pairs by a breadth-first search from every node (independent of the Wiener sum). */
function bruteVirality(parent: number[]): number {
  const n = parent.length;
  const adj: number[][] = parent.map(() => []);
  parent.forEach((p, i) => {
    if (p >= 0) {
      adj[p].push(i);
      adj[i].push(p);
    }
  });
  let sum = 0;
  for (let s = 0; s < n; s++) {
    const dist = new Array<number>(n).fill(-1);
    dist[s] = 0;
    const queue = [s];
    for (let k = 0; k < queue.length; k++)
      for (const w of adj[queue[k]])
        if (dist[w] < 0) {
          dist[w] = dist[queue[k]] + 1;
          queue.push(w);
        }
    sum += dist.reduce((a, b) => a + b, 0);
  }
  return sum / (n * (n - 1));
}

describe('treeStats', () => {
  it('chain of 5: depth 4, breadth 1, virality (n+1)/3 = 2 (20 over 10 pairs)', () => {
    expect(treeStats([-1, 0, 1, 2, 3])).toEqual({ size: 5, depth: 4, maxBreadth: 1, virality: 2 });
  });

  it('chains of every length up to 40 have virality (n+1)/3', () => {
    for (let n = 2; n <= 40; n++) {
      const parent = Array.from({ length: n }, (_, i) => i - 1);
      expect(treeStats(parent).virality).toBeCloseTo((n + 1) / 3, 12);
    }
  });

  it('star of 5 nodes: depth 1, breadth 4, virality 2(n-1)/n = 1.6 (16 over 10 pairs)', () => {
    expect(treeStats([-1, 0, 0, 0, 0])).toEqual({ size: 5, depth: 1, maxBreadth: 4, virality: 1.6 });
    const star = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? -1 : 0));
    expect(treeStats(star(100)).virality).toBeCloseTo((2 * 99) / 100, 12);
  });

  it('complete binary tree of 7 nodes: depth 2, breadth 4, virality 48/21', () => {
    // distances by hand: root-child 2x1, root-grandchild 4x2, child-child 1x2,
    // child-own grandchild 4x1, child-other grandchild 4x3, siblings 2x2, cousins 4x4 = 48
    const s = treeStats([-1, 0, 0, 1, 1, 2, 2]);
    expect(s).toMatchObject({ size: 7, depth: 2, maxBreadth: 4 });
    expect(s.virality).toBeCloseTo(48 / 21, 12);
  });

  it('a lone root has no virality; a prefix of the node list is its own tree', () => {
    expect(treeStats([-1])).toEqual({ size: 1, depth: 0, maxBreadth: 1, virality: null });
    expect(treeStats([-1, 0, 0, 1, 1, 2, 2], 3)).toEqual({
      size: 3,
      depth: 1,
      maxBreadth: 2,
      virality: 4 / 3,
    });
  });

  it('agrees with all-pairs breadth-first search on irregular trees', () => {
    let x = 12345;
    for (let trial = 0; trial < 20; trial++) {
      const n = 2 + ((trial * 7) % 60);
      const parent = [-1];
      for (let i = 1; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        parent.push(x % i);
      }
      expect(treeStats(parent).virality).toBeCloseTo(bruteVirality(parent), 10);
    }
  });
});
