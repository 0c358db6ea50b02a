import pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import { type Topology, toGraphology } from '../network/index.ts';

const pagerank = pagerankModule as unknown as (typeof pagerankModule)['default'];

/** Networks up to this many agents get PageRank (it copies the network into a graphology graph). */
export const PAGERANK_MAX_AGENTS = 200_000;

/** Per agent: its degree, local clustering coefficient and PageRank (null where not computed). */
export interface NetworkMeasures {
  degree: Int32Array;
  clustering: Float64Array;
  pagerank: Float64Array | null;
}

/**
 * The local clustering coefficient of each agent, C_i = 2 T_i / (k_i (k_i − 1)) with T_i the
 * triangles through i (Watts & Strogatz 1998), 0 for degree below 2. Counted on the sorted
 * neighbour lists directly (a marker array per agent, O(Σ k_i²)): graphology-metrics has no
 * local clustering, and copying a large network into a graph object for it costs more than
 * the count.
 */
export function localClustering(network: Topology): Float64Array {
  const n = network.size;
  const out = new Float64Array(n);
  const mark = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const k = network.degree(i);
    if (k < 2) continue;
    network.forEachNeighbour(i, (j) => {
      mark[j] = i;
    });
    let links = 0;
    network.forEachNeighbour(i, (j) => {
      network.forEachNeighbour(j, (l) => {
        if (mark[l] === i) links++;
      });
    });
    // each link between two neighbours was counted from both ends
    out[i] = links / (k * (k - 1));
  }
  return out;
}

/**
 * Degree, local clustering and PageRank (damping 0.85, graphology-metrics) of every agent of
 * a network; PageRank only up to {@link PAGERANK_MAX_AGENTS} agents, and not for `complete`
 * networks (never materialised; every agent alike there).
 */
export function networkMeasures(network: Topology): NetworkMeasures {
  const n = network.size;
  const degree = Int32Array.from({ length: n }, (_, i) => network.degree(i));
  if (network.kind === 'complete')
    return {
      degree,
      clustering: new Float64Array(n).fill(n > 2 ? 1 : 0),
      pagerank: new Float64Array(n).fill(1 / n),
    };
  const clustering = localClustering(network);
  if (n > PAGERANK_MAX_AGENTS) return { degree, clustering, pagerank: null };
  const ranks = pagerank(toGraphology(network), { alpha: 0.85, getEdgeWeight: null });
  const pr = Float64Array.from({ length: n }, (_, i) => ranks[String(i)] ?? 0);
  return { degree, clustering, pagerank: pr };
}
