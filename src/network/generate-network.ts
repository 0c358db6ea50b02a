import { isAbsolute, resolve } from 'node:path';
import type { Rng } from '../core/index.ts';
import { barabasiAlbert } from './barabasi-albert.ts';
import { complete } from './complete.ts';
import { erdosRenyi } from './erdos-renyi.ts';
import { loadEdgeListCsv } from './load-edge-list-csv.ts';
import { loadGraphologyJson } from './load-graphology-json.ts';
import type { NetworkSpec } from './network-spec.ts';
import { ringLattice } from './ring-lattice.ts';
import { stochasticBlockModel } from './stochastic-block-model.ts';
import type { Topology } from './topology.ts';
import { wattsStrogatz } from './watts-strogatz.ts';

/** Options of {@link generateNetwork}. */
export interface GenerateNetworkOptions {
  /** Directory that relative `path`s of file specs are resolved against (default: cwd). */
  baseDir?: string;
}

/**
 * Builds the network a {@link NetworkSpec} describes. Generators draw from `rng` only (pass
 * a dedicated stream, e.g. `streams.stream('network')`), so the same spec and seed always
 * give the same topology; `ring-lattice`, `complete` and the file kinds draw nothing.
 * File kinds return only the topology: call {@link loadEdgeListCsv} or
 * {@link loadGraphologyJson} directly to also get the node labels.
 * @throws ConfigError for invalid parameters or an unreadable or malformed file.
 */
export function generateNetwork(spec: NetworkSpec, rng: Rng, options: GenerateNetworkOptions = {}): Topology {
  switch (spec.kind) {
    case 'ring-lattice':
      return ringLattice(spec);
    case 'watts-strogatz':
      return wattsStrogatz(spec, rng);
    case 'erdos-renyi':
      return erdosRenyi(spec, rng);
    case 'barabasi-albert':
      return barabasiAlbert(spec, rng);
    case 'stochastic-block-model':
      return stochasticBlockModel(spec, rng);
    case 'complete':
      return complete(spec);
    case 'csv':
      return loadEdgeListCsv(resolvePath(spec.path, options)).topology;
    case 'graphology-json':
      return loadGraphologyJson(resolvePath(spec.path, options)).topology;
  }
}

function resolvePath(path: string, options: GenerateNetworkOptions): string {
  return isAbsolute(path) || options.baseDir === undefined ? path : resolve(options.baseDir, path);
}
