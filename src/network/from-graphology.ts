import type { AbstractGraph } from 'graphology-types';
import { EdgeList } from './edge-list.ts';
import type { LoadedNetwork } from './loaded-network.ts';

/**
 * Converts a graphology graph to a {@link CsrTopology}. Agents are the graph's nodes in
 * its node order (`graph.nodes()`), and `labels` holds their keys. Any graph type is
 * accepted: directed and mixed edges are made undirected, parallel edges merged and self
 * loops dropped. Attributes are ignored.
 * @param kind The topology's `kind` (default `graphology`).
 */
export function fromGraphology(graph: AbstractGraph, kind = 'graphology'): LoadedNetwork {
  const labels = graph.nodes();
  const index = new Map<string, number>();
  for (let i = 0; i < labels.length; i++) index.set(labels[i], i);
  const edges = new EdgeList(graph.size);
  graph.forEachEdge((_edge, _attributes, source, target) => {
    edges.push(index.get(source)!, index.get(target)!);
  });
  return { topology: edges.toTopology(kind, labels.length), labels };
}
