import { UndirectedGraph } from 'graphology';
import { ConfigError } from '../core/index.ts';
import type { Topology } from './topology.ts';

/**
 * Converts a topology to a graphology `UndirectedGraph`, for analysis with the graphology
 * ecosystem (metrics, layouts, export). Nodes are added in agent order with keys
 * `labels[i]` (default `String(i)`), and edges in ascending (i, j) order with keys "0",
 * "1", ..., so the same topology always gives the same graph and the same export.
 * Not for hot paths: it allocates per node and per edge.
 * @throws ConfigError if `labels` has the wrong length or repeats a label.
 */
export function toGraphology(topology: Topology, labels?: readonly string[]): UndirectedGraph {
  const n = topology.size;
  if (labels !== undefined && labels.length !== n)
    throw new ConfigError(`toGraphology: ${labels.length} labels for a topology of ${n} agents`, {
      hint: 'pass one label per agent, or none to use the agent indices',
    });
  const keys = labels ?? Array.from({ length: n }, (_, i) => String(i));
  const graph = new UndirectedGraph();
  for (let i = 0; i < n; i++) {
    if (graph.hasNode(keys[i]))
      throw new ConfigError(`toGraphology: label ${JSON.stringify(keys[i])} is used by two agents`, {
        hint: 'labels must be unique',
      });
    graph.addNode(keys[i]);
  }
  let e = 0;
  for (let i = 0; i < n; i++) {
    topology.forEachNeighbour(i, (j) => {
      if (j > i) graph.addEdgeWithKey(String(e++), keys[i], keys[j]);
    });
  }
  return graph;
}
