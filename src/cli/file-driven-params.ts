import { ConfigError, RngStreams } from '../core/index.ts';
import type { FileParamSpec, WorldDefinition } from '../world/index.ts';

type Params = Record<string, unknown>;

function refuse(message: string, hint: string): never {
  throw new ConfigError(message, { hint });
}

/** Whether the run reads a declared file parameter under these settings. */
function isRead(param: string, spec: FileParamSpec, params: Params): boolean {
  return spec.readWhen ? spec.readWhen(params) : typeof params[param] === 'string' && params[param] !== '';
}

/** The declared file parameter that gives the network under these settings, if one does. */
function networkSource(def: WorldDefinition, params: Params): [string, FileParamSpec] | undefined {
  const files = Object.entries((def.fileParams ?? {}) as Record<string, FileParamSpec>);
  return files.find(([param, spec]) => spec.network === true && isRead(param, spec, params));
}

/**
 * Refuses a run's explicitly given parameter (config file or `--set`) that the run would
 * silently not apply because a file decides instead, from what the world declares
 * (`WorldDefinition.fileParams`, `networkParams`): a file parameter whose file is not read
 * under the run's settings, and, when a file gives the network, `n` that differs from the
 * population it gives, the network parameters and whatever the file `replaces`.
 *
 * @param explicit the parameters the user gave; `params` the resolved ones; `size` the population built.
 * @throws ConfigError (exit 2) naming the parameter.
 */
export function checkFileDrivenParams(
  def: WorldDefinition,
  explicit: Params,
  params: Params,
  size: number,
): void {
  const given = (key: string): boolean => Object.hasOwn(explicit, key) && Object.hasOwn(params, key);
  for (const [param, spec] of Object.entries((def.fileParams ?? {}) as Record<string, FileParamSpec>))
    if (given(param) && params[param] !== '' && !isRead(param, spec, params))
      refuse(
        `${param} is given but not read: the file is read only with ${spec.needs ?? 'other settings'}`,
        `drop ${param}${spec.needs ? `, or set ${spec.needs}` : ''}`,
      );
  const source = networkSource(def, params);
  if (!source) return;
  const [file, spec] = source;
  if (given('n') && params.n !== size)
    refuse(
      `n=${String(params.n)} is not applied: the population comes from ${file} (${size} agents)`,
      `drop n (the file gives the population), or set n=${size}`,
    );
  const unused = [...(def.networkParams ?? []), ...(spec.replaces ?? [])].filter(given);
  if (unused.length > 0)
    refuse(
      `${unused.join(', ')} ${unused.length === 1 ? 'is' : 'are'} not applied: the network comes from ${file}`,
      `drop ${unused.join(', ')}`,
    );
}

/**
 * {@link checkFileDrivenParams} for a run that is planned, not started (a sweep point): a
 * world whose network comes from a file is built once (no log, no ticks) to learn its size.
 *
 * @throws ConfigError (exit 2) naming the parameter.
 */
export function checkPlannedParams(
  def: WorldDefinition,
  explicit: Params,
  params: Params,
  seed: number,
): void {
  const size = networkSource(def, params)
    ? def.create({ params, seed, rng: new RngStreams(seed) }).size
    : Number(params.n);
  checkFileDrivenParams(def, explicit, params, size);
}
