import { type TreeStats, treeStats } from './cascade-stats.ts';

/** One cascade: the tree of first tellings grown from one origin. */
export interface Cascade {
  /** The origin agent. */
  root: number;
  /** Tick the origin came to know the item. */
  rootTime: number;
  /** Agents in the tree, ordered by the tick they first heard, then by depth. */
  nodes: Int32Array;
  /** Index in `nodes` of each node's parent (-1 for the root); parents come first. */
  parent: Int32Array;
  /** Tick each node first heard (same order as `nodes`). */
  time: Float64Array;
}

/** The cascades of one item, built from provenance columns. */
export interface ItemCascades {
  item: string;
  /** One tree per origin, in order of the origin's agent index. */
  cascades: Cascade[];
  /** Agents with a recorded first hearing that no origin's tree reaches (bad provenance). */
  orphans: number;
}

/** Per-cascade figures of the report. */
export interface CascadeSummary extends TreeStats {
  root: number;
  rootTime: number;
  /** Ticks after the origin's own at which the cascade reached k agents, for k = 1, 10, 100... */
  timeToReach: Record<string, number>;
}

/**
 * Builds one item's cascades from the provenance kept in agent memory: `src[i]` is the
 * agent who first told agent i (i itself, or a negative number, for an origin) and `at[i]`
 * the tick of that first telling (negative: never heard). The edges (src[i], i, at[i]) of
 * all agents who heard form a forest; each origin's tree is one cascade. Agents whose
 * parent chain does not lead to an origin are counted as orphans.
 */
export function buildCascades(item: string, src: ArrayLike<number>, at: ArrayLike<number>): ItemCascades {
  const n = at.length;
  const childCount = new Int32Array(n + 1);
  const roots: number[] = [];
  let heard = 0;
  for (let i = 0; i < n; i++) {
    if (!(at[i] >= 0)) continue;
    heard++;
    const p = src[i];
    if (p < 0 || p === i) roots.push(i);
    else if (p < n && at[p] >= 0) childCount[p + 1]++;
  }
  for (let i = 0; i < n; i++) childCount[i + 1] += childCount[i];
  const children = new Int32Array(childCount[n]);
  const fill = childCount.slice(0, n);
  for (let i = 0; i < n; i++) {
    const p = src[i];
    if (at[i] >= 0 && p >= 0 && p !== i && p < n && at[p] >= 0) children[fill[p]++] = i;
  }
  const cascades = roots.map((r) => growTree(r, childCount, children, at));
  const reached = cascades.reduce((s, c) => s + c.nodes.length, 0);
  return { item, cascades, orphans: heard - reached };
}

function growTree(root: number, offsets: Int32Array, children: Int32Array, at: ArrayLike<number>): Cascade {
  const bfs: number[] = [root];
  const bfsParent: number[] = [-1];
  for (let k = 0; k < bfs.length; k++) {
    const v = bfs[k];
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      bfs.push(children[e]);
      bfsParent.push(k);
    }
  }
  // BFS order is by depth; sorting by (tick, BFS position) keeps parents before children
  // whenever a parent heard no later than its child, which a first telling guarantees.
  const order = Array.from(bfs.keys()).sort((a, b) => at[bfs[a]] - at[bfs[b]] || a - b);
  const pos = new Int32Array(bfs.length);
  order.forEach((k, j) => {
    pos[k] = j;
  });
  const inOrder = order.every((k, j) => bfsParent[k] < 0 || pos[bfsParent[k]] < j);
  const use = inOrder ? order : Array.from(bfs.keys());
  if (!inOrder)
    use.forEach((k, j) => {
      pos[k] = j;
    });
  const nodes = Int32Array.from(use, (k) => bfs[k]);
  const parent = Int32Array.from(use, (k) => (bfsParent[k] < 0 ? -1 : pos[bfsParent[k]]));
  const time = Float64Array.from(nodes, (v) => at[v]);
  return { root, rootTime: at[root], nodes, parent, time };
}

/** Sizes k = 1, 10, 100, ... up to `size`. */
export function decades(size: number): number[] {
  const ks: number[] = [];
  for (let k = 1; k <= size; k *= 10) ks.push(k);
  return ks;
}

/** {@link TreeStats} of a cascade, plus the ticks it took to reach 1, 10, 100... agents. */
export function summarizeCascade(c: Cascade): CascadeSummary {
  const timeToReach: Record<string, number> = {};
  if (c.time.length > 0) {
    const sorted = Float64Array.from(c.time).sort();
    for (const k of decades(c.nodes.length)) timeToReach[k] = sorted[k - 1] - c.rootTime;
  }
  return { root: c.root, rootTime: c.rootTime, ...treeStats(c.parent), timeToReach };
}
