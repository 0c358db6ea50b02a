import type { Rng } from '../core/index.ts';
import { CsrTopology } from './csr-topology.ts';
import { checkEdgeBudget, checkInt, checkNodeCount } from './param-checks.ts';

/** Parameters of {@link barabasiAlbert}. */
export interface BarabasiAlbertParams {
  /** Number of agents (> m). */
  n: number;
  /** Edges each new agent brings, 1 <= m < n. */
  m: number;
}

/**
 * A Barabási–Albert preferential-attachment graph. It starts from a clique of m + 1 agents
 * (so every agent ends with degree >= m); each later agent links to m distinct earlier
 * agents drawn with probability proportional to degree, by uniform picks from the list of
 * edge endpoints (the repeated-nodes trick). Edge count m(m+1)/2 + m(n - m - 1). O(n*m).
 * @throws ConfigError unless 1 <= m < n.
 */
export function barabasiAlbert(params: BarabasiAlbertParams, rng: Rng): CsrTopology {
  const n = checkNodeCount('barabasi-albert', params.n, 2);
  const hint = 'barabasi-albert needs 1 <= m < n';
  const m = checkInt('barabasi-albert', 'm', params.m, 1, n - 1, hint);
  const edgeCount = (m * (m + 1)) / 2 + m * (n - m - 1);
  checkEdgeBudget('barabasi-albert', edgeCount);
  // edge e is (repeated[2e], repeated[2e + 1]): the endpoint list is the edge list
  const repeated = new Int32Array(2 * edgeCount);
  const degrees = new Int32Array(n + 1);
  let e = 0;
  for (let u = 0; u <= m; u++) {
    degrees[u] = m;
    for (let v = u + 1; v <= m; v++) {
      repeated[2 * e] = u;
      repeated[2 * e + 1] = v;
      e++;
    }
  }
  const chosenBy = new Int32Array(n).fill(-1);
  for (let source = m + 1; source < n; source++) {
    const pool = 2 * e;
    degrees[source] = m;
    for (let t = 0; t < m; t++) {
      let target = repeated[rng.int(pool)];
      while (chosenBy[target] === source) target = repeated[rng.int(pool)];
      chosenBy[target] = source;
      degrees[target]++;
      repeated[2 * e] = source;
      repeated[2 * e + 1] = target;
      e++;
    }
  }
  return CsrTopology.fromSimplePairs('barabasi-albert', repeated, e, degrees);
}
