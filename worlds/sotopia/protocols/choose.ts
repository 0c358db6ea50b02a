import type { Episode } from '../episode.ts';
import type { Protocol, SotopiaParams } from '../params.ts';
import { grapevineV0Protocol } from './grapevine-v0.ts';
import type { SotopiaProtocol } from './protocol.ts';
import { zhou2024Protocol } from './zhou2024.ts';

/** How each protocol is built from a run's episode, parameters, model and seed. */
const BUILDERS: Record<
  Protocol,
  (episode: Episode, params: SotopiaParams, model: string, seed: number) => SotopiaProtocol
> = {
  zhou2024: (episode, params, model, seed) => zhou2024Protocol({ episode, params, model, seed }),
  'grapevine-v0': grapevineV0Protocol,
};

/**
 * The run's protocol, chosen once from `params.protocol` (and, for zhou2024, its reply
 * contract from `params.contract`): the one place where the protocol's name decides anything.
 */
export function chooseProtocol(
  episode: Episode,
  params: SotopiaParams,
  model: string,
  seed: number,
): SotopiaProtocol {
  return BUILDERS[params.protocol](episode, params, model, seed);
}
