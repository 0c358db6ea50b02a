import { ConfigError, RngStreams } from '../core/index.ts';
import type { WorldDefinition } from '../world/index.ts';

type Params = Record<string, unknown>;

/** A file parameter and when the built-in worlds (rumor, opinion) read it. */
interface FileParam {
  param: string;
  /** The setting under which the file is read. */
  needs: string;
  read: (p: Params) => boolean;
}

/** The network comes from W's file (opinion `weights=file`): no generator, no edge list. */
const fromWeights = (p: Params): boolean => p.weights === 'file';

/** The population comes from a file: an edge list (`network=csv`) or a trust matrix. */
const fromFile = (p: Params): boolean => fromWeights(p) || p.network === 'csv';

const FILES: readonly FileParam[] = [
  { param: 'networkFile', needs: 'network=csv', read: (p) => p.network === 'csv' && !fromWeights(p) },
  { param: 'weightsFile', needs: 'weights=file', read: fromWeights },
  { param: 'opinionsFile', needs: 'initial=file', read: (p) => p.initial === 'file' },
  {
    param: 'susceptibilityFile',
    needs: 'model=friedkin-johnsen with susceptibility=file',
    read: (p) => p.susceptibility === 'file' && p.model === 'friedkin-johnsen',
  },
];

/** Network generator parameters, unused when the network comes from a file. */
const GENERATOR = ['k', 'beta', 'm', 'blocks', 'pIn', 'pOut'] as const;

/** A parameter described as a generator's (the epidemic world's `beta` is its transmission probability). */
const GENERATOR_TEXT =
  /watts-strogatz|erdos-renyi|barabasi-albert|stochastic-block-model|ring-lattice|mean degree/i;

function refuse(message: string, hint: string): never {
  throw new ConfigError(message, { hint });
}

/**
 * Refuses a run's explicitly given parameter (config file or `--set`) that the run would
 * silently not apply because a file decides instead: `n` that differs from the population
 * the network file gives, the generator's `k`, `beta`, `m`, `blocks`, `pIn`, `pOut` (and, when a trust matrix gives
 * the network, `network` and `networkFile`) with a file network, and a file parameter whose
 * file is not read under the run's settings. Parameter names are those of the built-in
 * worlds; a world without them is never affected, and `k`, `beta`, `m` count as the
 * generator's only when `describe` (the world's parameter descriptions) says so.
 *
 * @param explicit the parameters the user gave; `params` the resolved ones; `size` the population built.
 * @throws ConfigError (exit 2) naming the parameter.
 */
export function checkFileDrivenParams(
  explicit: Params,
  params: Params,
  size: number,
  describe: (param: string) => string = () => '',
): void {
  const given = (key: string): boolean => Object.hasOwn(explicit, key) && Object.hasOwn(params, key);
  for (const f of FILES)
    if (given(f.param) && params[f.param] !== '' && !f.read(params))
      refuse(
        `${f.param} is given but not read: the file is read only with ${f.needs}`,
        `drop ${f.param}, or set ${f.needs}`,
      );
  if (!fromFile(params)) return;
  const source = fromWeights(params) ? 'weightsFile' : 'networkFile';
  if (given('n') && params.n !== size)
    refuse(
      `n=${String(params.n)} is not applied: the population comes from ${source} (${size} agents)`,
      `drop n (the file gives the population), or set n=${size}`,
    );
  const generator = GENERATOR.filter((k) => GENERATOR_TEXT.test(describe(k)));
  const unused = [...generator, ...(fromWeights(params) ? ['network', 'networkFile'] : [])].filter(given);
  if (unused.length > 0)
    refuse(
      `${unused.join(', ')} ${unused.length === 1 ? 'is' : 'are'} not applied: the network comes from ${source}`,
      `drop ${unused.join(', ')}`,
    );
}

/**
 * {@link checkFileDrivenParams} for a run that is planned, not started (a sweep point): a
 * world whose population comes from a file is built once (no log, no ticks) to learn it.
 *
 * @throws ConfigError (exit 2) naming the parameter.
 */
export function checkPlannedParams(
  def: WorldDefinition,
  explicit: Params,
  params: Params,
  seed: number,
): void {
  const size = fromFile(params)
    ? def.create({ params, seed, rng: new RngStreams(seed) }).size
    : Number(params.n);
  checkFileDrivenParams(explicit, params, size, (k) => String(def.params.shape[k]?.description ?? ''));
}
