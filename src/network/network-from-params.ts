import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError, type Rng, sha256Hex } from '../core/index.ts';
import { generateNetwork } from './generate-network.ts';
import { loadEdgeListCsv } from './load-edge-list-csv.ts';
import { sharedNetwork } from './network-share.ts';
import type { NetworkSpec } from './network-spec.ts';
import type { Topology } from './topology.ts';

/** The network parameters a world exposes (`--set network=... k=... beta=...`). */
export interface WorldNetworkParams {
  network: 'watts-strogatz' | 'erdos-renyi' | 'barabasi-albert' | 'ring-lattice' | 'complete' | 'csv';
  n: number;
  /** Mean degree (watts-strogatz and ring-lattice: an integer; erdos-renyi: any). */
  k: number;
  /** Watts–Strogatz rewiring probability. */
  beta: number;
  /** Barabási–Albert edges per new node. */
  m: number;
  /** Edge-list CSV when `network=csv`. */
  networkFile?: string;
}

/**
 * Bytes per agent a run needs besides its network's arcs, at least: bench/scale.ts measured
 * 311 bytes per agent in all at 10^7 agents with k = 10, of which ~90 are the network.
 */
export const MIN_BYTES_PER_AGENT = 200;

/**
 * A lower bound of the memory a run of these parameters needs: {@link MIN_BYTES_PER_AGENT}
 * per agent plus 8 bytes per arc while the network is built (its edge list and the CSR
 * neighbour array). A network file is not counted (its size is known only once read).
 */
export function estimateRunBytes(p: Pick<WorldNetworkParams, 'network' | 'n' | 'k' | 'm'>): number {
  const degree =
    p.network === 'complete' || p.network === 'csv' ? 0 : p.network === 'barabasi-albert' ? 2 * p.m : p.k;
  return p.n * (MIN_BYTES_PER_AGENT + 8 * degree);
}

const GIB = 1024 ** 3;

/**
 * Refuses, before anything is allocated, a population that cannot fit in this machine's
 * memory (even by the lower-bound estimate).
 * @throws ConfigError saying how much it needs and how much there is.
 */
export function checkRunFits(
  p: Pick<WorldNetworkParams, 'network' | 'n' | 'k' | 'm'>,
  total = totalmem(),
): void {
  const need = estimateRunBytes(p);
  if (need <= total) return;
  throw new ConfigError(
    `n=${p.n} needs at least ${(need / GIB).toFixed(1)} GiB of memory; this machine has ${(total / GIB).toFixed(1)} GiB`,
    { hint: 'use a smaller n (or a smaller degree k), or a machine with more memory' },
  );
}

/**
 * Builds a world's network from its parameters: one generator draw from `rng` (the run's
 * `network` stream), Erdős–Rényi as G(n, p = k/(n−1)); `network=csv` loads the file and
 * reports its sha256 in `inputs` (recorded in the log header, so a replay notices a change).
 * @throws ConfigError naming the parameter to fix.
 */
export function networkFromParams(
  p: WorldNetworkParams,
  rng: Rng,
  /** Where to read `networkFile` (a world passes its `WorldSetup.resolvePath`). */
  resolvePath: (param: string, path: string) => string = (_param, path) => resolve(path),
): { topology: Topology; inputs?: Record<string, string> } {
  checkRunFits(p);
  if (p.network === 'csv') {
    if (!p.networkFile)
      throw new ConfigError('network=csv needs networkFile', {
        hint: 'add --set networkFile=path/to/edges.csv',
      });
    const path = resolvePath('networkFile', p.networkFile);
    return {
      topology: loadEdgeListCsv(path).topology,
      inputs: { networkFile: sha256Hex(readFileSync(path)) },
    };
  }
  if ((p.network === 'watts-strogatz' || p.network === 'ring-lattice') && !Number.isInteger(p.k))
    throw new ConfigError(`${p.network} needs an integer degree k (got ${p.k})`, {
      hint: 'only erdos-renyi takes a fractional mean degree',
    });
  const specs: Record<string, NetworkSpec> = {
    'watts-strogatz': { kind: 'watts-strogatz', n: p.n, k: p.k, beta: p.beta },
    'ring-lattice': { kind: 'ring-lattice', n: p.n, k: p.k },
    'erdos-renyi': { kind: 'erdos-renyi', n: p.n, p: Math.min(1, p.k / Math.max(1, p.n - 1)) },
    'barabasi-albert': { kind: 'barabasi-albert', n: p.n, m: p.m },
    complete: { kind: 'complete', n: p.n },
  };
  const spec = specs[p.network];
  return { topology: sharedNetwork(spec, rng, () => generateNetwork(spec, rng)) };
}
