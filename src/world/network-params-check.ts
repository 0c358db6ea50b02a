import { ConfigError } from '../core/index.ts';
import type { WorldNetworkParams } from '../network/index.ts';
import type { NetworkGeneratorParam, WorldDefinition } from './define-world.ts';

/**
 * The generator parameters each network reads when a world builds it with
 * `networkFromParams` (n aside, which every network reads): Watts–Strogatz k and beta,
 * Erdős–Rényi and the ring lattice k, Barabási–Albert m, the stochastic block model blocks,
 * pIn and pOut, the complete graph and an edge-list
 * file none (a file network's parameters are checked by the CLI's `checkFileDrivenParams`).
 */
export const NETWORK_READS: Readonly<
  Record<WorldNetworkParams['network'], readonly NetworkGeneratorParam[]>
> = {
  'watts-strogatz': ['k', 'beta'],
  'erdos-renyi': ['k'],
  'barabasi-albert': ['m'],
  'stochastic-block-model': ['blocks', 'pIn', 'pOut'],
  'ring-lattice': ['k'],
  complete: [],
  csv: [],
};

/**
 * Refuses a generator parameter that was given (`given`: the parameters as the user set
 * them, before defaults) but that the chosen network ignores, e.g. `beta` with
 * `network=erdos-renyi`: the run would otherwise look as if it used it. Only the world's
 * {@link WorldDefinition.networkParams} are checked; `network` is read from `resolved`.
 * A file network (`network=csv`) is left to the CLI's `checkFileDrivenParams`, which says
 * that the file decides.
 *
 * @throws ConfigError naming the parameter, the network and the networks that read it.
 */
export function checkNetworkParamsApplied(
  def: WorldDefinition,
  given: Record<string, unknown>,
  resolved: Record<string, unknown>,
  where = '',
): void {
  const network = resolved.network as WorldNetworkParams['network'];
  const reads = NETWORK_READS[network];
  if (!def.networkParams || reads === undefined || network === 'csv') return;
  for (const param of def.networkParams) {
    if (!Object.hasOwn(given, param) || reads.includes(param)) continue;
    const readers = Object.keys(NETWORK_READS).filter((k) =>
      NETWORK_READS[k as WorldNetworkParams['network']].includes(param),
    );
    throw new ConfigError(
      `${where}parameter "${param}" of world "${def.id}" is ignored by network=${network} (it reads ${reads.length ? reads.join(', ') : 'no generator parameter'})`,
      { hint: `remove ${param}, or choose a network that reads it: ${readers.join(', ')}` },
    );
  }
}
