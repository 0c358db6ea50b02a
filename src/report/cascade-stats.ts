/**
 * Statistics of one cascade tree whose nodes are listed parents first (node 0 is the root,
 * `parent[i] < i` for every other node).
 */
export interface TreeStats {
  /** Number of nodes, root included. */
  size: number;
  /** Largest distance from the root (0 for a lone root). */
  depth: number;
  /** Largest number of nodes at one distance from the root. */
  maxBreadth: number;
  /**
   * Structural virality (Goel, Anderson, Hofman & Watts 2016): the mean shortest-path
   * distance over all pairs of distinct nodes; null for a tree of one node.
   */
  virality: number | null;
}

/**
 * Computes {@link TreeStats} in O(n) for a tree given as parent indices, listed parents
 * first: `parent[0] = -1` and `0 <= parent[i] < i` for `i >= 1`. Structural virality is
 * the Wiener index (sum of the distances of all unordered pairs) divided by n(n-1)/2; the
 * Wiener index of a tree is the sum over its edges of s(n - s), s being the number of
 * nodes below the edge.
 *
 * @param n - number of nodes to use: the first `n` entries of `parent` (default: all).
 */
export function treeStats(parent: ArrayLike<number>, n: number = parent.length): TreeStats {
  if (n === 0) return { size: 0, depth: 0, maxBreadth: 0, virality: null };
  const depth = new Int32Array(n);
  let maxDepth = 0;
  for (let i = 1; i < n; i++) {
    const d = depth[parent[i]] + 1;
    depth[i] = d;
    if (d > maxDepth) maxDepth = d;
  }
  const perLevel = new Int32Array(maxDepth + 1);
  for (let i = 0; i < n; i++) perLevel[depth[i]]++;
  let maxBreadth = 0;
  for (const c of perLevel) if (c > maxBreadth) maxBreadth = c;
  const below = new Float64Array(n).fill(1);
  let wiener = 0;
  for (let i = n - 1; i >= 1; i--) {
    const s = below[i];
    wiener += s * (n - s);
    below[parent[i]] += s;
  }
  const virality = n < 2 ? null : wiener / ((n * (n - 1)) / 2);
  return { size: n, depth: maxDepth, maxBreadth, virality };
}
