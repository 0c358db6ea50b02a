import { expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import type { Topology } from '../../src/network/index.ts';

/**
 * The contract every {@link Topology} implementation must meet, as a shared suite: call it
 * inside a `describe` with a factory for the topology under test (keep it small, < ~3000
 * agents, as the checks are exhaustive).
 */
export function topologyContract(make: () => Topology): void {
  it('lists each row ascending, in range, without self loops or duplicates', () => {
    const t = make();
    // every edge checked; broken ones collected (one expect per edge made this suite slow)
    const broken: string[] = [];
    for (let i = 0; i < t.size; i++) {
      let prev = -1;
      for (let k = 0; k < t.degree(i); k++) {
        const j = t.neighbour(i, k);
        if (!(j > prev)) broken.push(`row ${i}: ${j} after ${prev}`);
        if (!(j < t.size)) broken.push(`row ${i}: ${j} out of range`);
        if (j === i) broken.push(`row ${i}: self loop`);
        prev = j;
      }
    }
    expect(broken.slice(0, 5)).toEqual([]);
  });

  it('is symmetric, and its degrees sum to twice the edge count', () => {
    const t = make();
    let sum = 0;
    for (let i = 0; i < t.size; i++) {
      sum += t.degree(i);
      t.forEachNeighbour(i, (j) => {
        if (!t.hasEdge(j, i)) throw new Error(`edge ${i}-${j} is not symmetric`);
      });
    }
    expect(sum).toBe(2 * t.edgeCount);
  });

  // the two checks below gather every agent's answers and compare them with one toEqual: one
  // expect per edge made them the slowest part of the network tests (vitest's per-expect cost)
  it('agrees between neighbour, forEachNeighbour and hasEdge', () => {
    const t = make();
    const rng = new SeededStream('contract');
    const seen = [];
    const expected = [];
    for (let i = 0; i < t.size; i++) {
      const listed: number[] = [];
      t.forEachNeighbour(i, (j) => listed.push(j));
      const probe = rng.int(t.size);
      seen.push({
        agent: i,
        listed,
        edges: listed.map((j) => t.hasEdge(i, j)),
        probe,
        probed: t.hasEdge(i, probe),
        self: t.hasEdge(i, i),
      });
      const byIndex = Array.from({ length: t.degree(i) }, (_, k) => t.neighbour(i, k));
      expected.push({
        agent: i,
        listed: byIndex,
        edges: listed.map(() => true),
        probe,
        probed: byIndex.includes(probe),
        self: false,
      });
    }
    expect(seen).toEqual(expected);
  });

  it('draws random neighbours among the neighbours, or -1 when isolated', () => {
    const t = make();
    const rng = new SeededStream('contract-random');
    const broken: string[] = [];
    for (let i = 0; i < t.size; i++) {
      const j = t.randomNeighbour(i, rng);
      if (t.degree(i) === 0 ? j !== -1 : !t.hasEdge(i, j))
        broken.push(`agent ${i} (degree ${t.degree(i)}) drew ${j}`);
    }
    expect(broken.slice(0, 5)).toEqual([]);
  });
}
