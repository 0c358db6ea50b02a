import { createRequire } from 'node:module';
import type Graphology from 'graphology';
import type { AbstractGraph, SerializedGraph } from 'graphology-types';
import { ConfigError } from '../core/index.ts';
import { fromGraphology } from './from-graphology.ts';
import type { LoadedNetwork } from './loaded-network.ts';
import { readNetworkFile } from './read-network-file.ts';

// graphology is required when a file is read, not when this module loads: every run imports
// this loader (through the network parameters), and few read a graphology file.
const require = createRequire(import.meta.url);

const FORMAT_HINT =
  'expected graphology JSON: {"attributes": {}, "options": {...}, "nodes": [{"key": ...}], "edges": [{"source": ..., "target": ...}]}';

/**
 * Loads a network saved in graphology's serialisation format (what `graph.export()` or
 * `JSON.stringify(graph)` writes): `{attributes, options, nodes: [{key, attributes}],
 * edges: [{source, target, ...}]}`. The file is parsed with graphology (`MultiGraph.from`,
 * so any graph type and options are accepted) and converted with {@link fromGraphology}:
 * agents follow the order of `nodes`, labels are the node keys, directed edges become
 * undirected, parallel edges are merged, self loops dropped and attributes ignored.
 * @throws ConfigError for a missing file, invalid JSON, a missing `nodes` array, a node
 * without a key, an edge naming an unknown node, or anything graphology rejects.
 */
export function loadGraphologyJson(path: string): LoadedNetwork {
  const text = readNetworkFile(path, 'graphology JSON file');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`${path}: not valid JSON (${(cause as Error).message})`, {
      hint: FORMAT_HINT,
      cause,
    });
  }
  checkShape(path, data);
  let graph: AbstractGraph;
  try {
    // Read into the most permissive graph type: direction, parallel edges and self loops
    // are all normalised away by fromGraphology.
    const { MultiGraph } = require('graphology') as typeof Graphology;
    graph = MultiGraph.from(data as SerializedGraph, { type: 'mixed', multi: true, allowSelfLoops: true });
  } catch (cause) {
    throw new ConfigError(`${path}: graphology rejected the graph: ${(cause as Error).message}`, {
      hint: FORMAT_HINT,
      cause,
    });
  }
  return fromGraphology(graph, 'graphology-json');
}

/** Checks the parts of the format that graphology would reject with a less helpful error. */
function checkShape(path: string, data: unknown): void {
  const doc = data as { nodes?: unknown; edges?: unknown };
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !Array.isArray(doc.nodes))
    throw new ConfigError(`${path}: expected an object with a "nodes" array`, { hint: FORMAT_HINT });
  if (doc.edges !== undefined && !Array.isArray(doc.edges))
    throw new ConfigError(`${path}: "edges" must be an array`, { hint: FORMAT_HINT });
  const keys = new Set<string>();
  doc.nodes.forEach((node: unknown, i: number) => {
    const key = (node as { key?: unknown } | null)?.key;
    if (typeof key !== 'string' && typeof key !== 'number')
      throw new ConfigError(`${path}: nodes[${i}] has no "key"`, { hint: FORMAT_HINT });
    keys.add(String(key));
  });
  ((doc.edges ?? []) as unknown[]).forEach((edge, i) => {
    const { source, target } = (edge ?? {}) as { source?: unknown; target?: unknown };
    for (const [end, key] of [
      ['source', source],
      ['target', target],
    ] as const) {
      if (key === undefined || key === null || !keys.has(String(key)))
        throw new ConfigError(`${path}: edges[${i}] has unknown ${end} node ${JSON.stringify(key ?? null)}`, {
          hint: 'every edge source and target must be the key of a node listed in "nodes"',
        });
    }
  });
}
