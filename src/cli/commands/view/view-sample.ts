import type { Topology } from '../../../network/index.ts';

/** The agents a viewer draws and the edges among them. */
export interface NetworkSample {
  /** Agent ids, ascending. */
  nodes: number[];
  /** Edges as pairs of positions in `nodes` (each undirected edge once). */
  edges: [number, number][];
  /** True when `nodes` is not the whole population. */
  sampled: boolean;
}

/**
 * Picks at most `max` agents to draw: everyone in small runs; otherwise half of them by a
 * breadth-first walk from the `keep` agents (e.g. the cascades' origins) over the network,
 * so the drawing shows their neighbourhoods with edges, and the rest by an even stride
 * through the population. The same inputs give the same sample. Edges are those of the
 * induced subgraph; a `complete` network (never materialised) gets no edges drawn.
 */
export function sampleNetwork(
  size: number,
  network: Topology | undefined,
  max: number,
  keep: readonly number[] = [],
): NetworkSample {
  const chosen = new Set<number>();
  if (size <= max) for (let i = 0; i < size; i++) chosen.add(i);
  else {
    const drawn = network && network.kind !== 'complete' ? network : undefined;
    breadthFirst(
      chosen,
      keep.filter((k) => k >= 0 && k < size),
      drawn,
      Math.floor(max / 2),
    );
    const stride = size / (max - chosen.size);
    for (let x = 0; chosen.size < max && x < size; x += stride) chosen.add(Math.floor(x));
    // strided picks that were already chosen leave a few places: the lowest ids fill them
    for (let i = 0; chosen.size < max && i < size; i++) chosen.add(i);
  }
  const nodes = [...chosen].sort((a, b) => a - b);
  const position = new Map(nodes.map((a, k) => [a, k]));
  const edges: [number, number][] = [];
  if (network && network.kind !== 'complete')
    nodes.forEach((a, k) => {
      network.forEachNeighbour(a, (b) => {
        const j = position.get(b);
        if (j !== undefined && j > k) edges.push([k, j]);
      });
    });
  return { nodes, edges, sampled: nodes.length < size };
}

/**
 * Positions on a circle in agent order (in [0, 1]^2): ring lattices and small worlds then
 * show their ring, and a drawing never depends on a random layout.
 */
export function circleLayout(count: number): { x: number[]; y: number[] } {
  const x: number[] = [];
  const y: number[] = [];
  for (let k = 0; k < count; k++) {
    const a = (2 * Math.PI * k) / Math.max(1, count) - Math.PI / 2;
    x.push(0.5 + 0.45 * Math.cos(a));
    y.push(0.5 + 0.45 * Math.sin(a));
  }
  return { x, y };
}

/** Adds agents to `chosen` breadth first from `starts` until it holds `limit` agents. */
function breadthFirst(
  chosen: Set<number>,
  starts: readonly number[],
  network: Topology | undefined,
  limit: number,
) {
  const queue: number[] = [];
  for (const s of starts) {
    if (chosen.size >= limit) return;
    if (!chosen.has(s)) queue.push(s);
    chosen.add(s);
  }
  for (let q = 0; q < queue.length && network; q++)
    for (let k = 0; k < network.degree(queue[q]); k++) {
      if (chosen.size >= limit) return;
      const j = network.neighbour(queue[q], k);
      if (!chosen.has(j)) {
        chosen.add(j);
        queue.push(j);
      }
    }
}
