import { resolve } from 'node:path';
import {
  ConfigError,
  formatBytes,
  type MemoryBudget,
  memoryBudget,
  type Rng,
  readInputFile,
  sha256Hex,
} from '../core/index.ts';
import { generateNetwork } from './generate-network.ts';
import { loadEdgeListCsv } from './load-edge-list-csv.ts';
import { sharedNetwork } from './network-share.ts';
import type { NetworkSpec } from './network-spec.ts';
import type { Topology } from './topology.ts';

/** The network parameters a world exposes (`--set network=... k=... beta=...`). */
export interface WorldNetworkParams {
  network:
    | 'watts-strogatz'
    | 'erdos-renyi'
    | 'barabasi-albert'
    | 'stochastic-block-model'
    | 'ring-lattice'
    | 'complete'
    | 'csv';
  n: number;
  /** Mean degree (watts-strogatz and ring-lattice: an integer; erdos-renyi: any). */
  k: number;
  /** Watts–Strogatz rewiring probability. */
  beta: number;
  /** Barabási–Albert edges per new node. */
  m: number;
  /** Edge-list CSV when `network=csv`. */
  networkFile?: string;
  /** Stochastic block model: number of blocks (sizes as equal as possible, larger ones first). */
  blocks?: number;
  /** Stochastic block model: edge probability of a pair within one block. */
  pIn?: number;
  /** Stochastic block model: edge probability of a pair in two different blocks. */
  pOut?: number;
}

/**
 * Bytes per agent a run needs besides its network's arcs, at least: bench/scale.ts measured
 * 311 bytes per agent in all at 10^7 agents with k = 10, of which ~90 are the network.
 */
export const MIN_BYTES_PER_AGENT = 200;

/**
 * A lower bound of the memory a run of these parameters needs: {@link MIN_BYTES_PER_AGENT}
 * per agent plus 8 bytes per arc while the network is built (its edge list and the CSR
 * neighbour array). The stochastic block model counts its expected degree, pIn × (n/blocks −
 * 1) + pOut × (n − n/blocks). A network file is not counted (its size is known only once read).
 */
export function estimateRunBytes(
  p: Pick<WorldNetworkParams, 'network' | 'n' | 'k' | 'm' | 'blocks' | 'pIn' | 'pOut'>,
): number {
  return p.n * (MIN_BYTES_PER_AGENT + 8 * meanDegree(p));
}

/** The mean degree the estimate counts for a network (0 where the graph is not built as arcs). */
function meanDegree(
  p: Pick<WorldNetworkParams, 'network' | 'n' | 'k' | 'm' | 'blocks' | 'pIn' | 'pOut'>,
): number {
  if (p.network === 'complete' || p.network === 'csv') return 0;
  if (p.network === 'barabasi-albert') return 2 * p.m;
  if (p.network !== 'stochastic-block-model') return p.k;
  const block = p.n / Math.max(1, p.blocks ?? 1);
  return (p.pIn ?? 0) * Math.max(0, block - 1) + (p.pOut ?? 0) * (p.n - block);
}

const GIB = 1024 ** 3;

/** Bytes as GiB with one decimal, or a smaller unit below 1 GiB. */
const gib = (n: number): string => (n >= GIB ? `${(n / GIB).toFixed(1)} GiB` : formatBytes(n));

/**
 * Refuses, before anything is allocated, a population that cannot fit in the run's memory
 * budget (see {@link MemoryBudget}: `GRAPEVINE_MEMORY_LIMIT`, the cgroup limit or the
 * machine's memory), even by the lower-bound estimate. A number is taken as the budget.
 * @throws ConfigError saying how much it needs and how much there is.
 */
export function checkRunFits(
  p: Pick<WorldNetworkParams, 'network' | 'n' | 'k' | 'm' | 'blocks' | 'pIn' | 'pOut'>,
  budget: MemoryBudget | number = memoryBudget(),
): void {
  const b: MemoryBudget = typeof budget === 'number' ? { bytes: budget, source: 'given' } : budget;
  const need = estimateRunBytes(p);
  if (need <= b.bytes) return;
  throw new ConfigError(
    `n=${p.n} needs at least ${gib(need)} of memory; this run has ${gib(b.bytes)} (${b.source})`,
    { hint: 'use a smaller n (or a smaller degree k), or a machine with more memory' },
  );
}

/**
 * Builds a world's network from its parameters: one generator draw from `rng` (the run's
 * `network` stream), Erdős–Rényi as G(n, p = k/(n−1)), the stochastic block model as
 * `blocks` near-equal blocks with `pIn` within and `pOut` between them (see {@link plantedPartition}); `network=csv` loads the file and
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
      inputs: { networkFile: sha256Hex(readInputFile(path, { what: 'edge list', bytesPerByte: 1 })) },
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
  const spec = p.network === 'stochastic-block-model' ? plantedPartition(p) : specs[p.network];
  return { topology: sharedNetwork(spec, rng, () => generateNetwork(spec, rng)) };
}

/**
 * The stochastic-block-model spec of a world's `blocks`, `pIn` and `pOut`: n agents in
 * `blocks` consecutive blocks whose sizes differ by at most one (the first n mod blocks
 * have one more), each pair within a block linked with probability pIn and each pair across
 * two blocks with pOut. This is NetworkX's `random_partition_graph(sizes, p_in, p_out)`, and
 * with equal sizes its `planted_partition_graph(blocks, n / blocks, p_in, p_out)` (Condon &
 * Karp 2001), both a `stochastic_block_model` with that block matrix.
 * @throws ConfigError if one of the three is missing, or blocks is not an integer in [1, n].
 */
export function plantedPartition(p: WorldNetworkParams): NetworkSpec {
  const missing = (['blocks', 'pIn', 'pOut'] as const).filter((key) => p[key] === undefined);
  if (missing.length > 0)
    throw new ConfigError(`network=stochastic-block-model needs ${missing.join(', ')}`, {
      hint: 'add e.g. --set blocks=4 --set pIn=0.01 --set pOut=0.001 (pIn within a block, pOut between blocks)',
    });
  const blocks = p.blocks as number;
  if (!Number.isInteger(blocks) || blocks < 1 || blocks > p.n)
    throw new ConfigError(`blocks must be an integer in [1, n=${p.n}] (got ${blocks})`, {
      hint: 'every block needs at least one agent',
    });
  const base = Math.floor(p.n / blocks);
  const sizes = Array.from({ length: blocks }, (_, b) => base + (b < p.n % blocks ? 1 : 0));
  const matrix = sizes.map((_, a) => sizes.map((_, b) => (a === b ? p.pIn : p.pOut) as number));
  return { kind: 'stochastic-block-model', sizes, p: matrix };
}
