import { ConfigError, RngStreams } from '../../../core/index.ts';
import type { WorldDefinition } from '../../../world/index.ts';

/**
 * Parameters of the built-in worlds that are read only when the world is built (population,
 * network generator and its parameters, initial roles and seeds, executor, turn policy,
 * model parameters captured at creation): a fork, which continues a world already built,
 * cannot change them. Every other parameter is read while the run goes on, and a fork's
 * `--set` applies it from the fork tick.
 */
export const FIXED_AT_CREATION: Readonly<Record<string, readonly string[]>> = {
  rumor: [
    'n',
    'network',
    'k',
    'beta',
    'm',
    'blocks',
    'pIn',
    'pOut',
    'networkFile',
    'insiders',
    'spreaders',
    'skeptics',
    'debunkers',
    'turns',
    'executor',
    'contact',
    'phi',
    'phiDistribution',
    'phiSpread',
  ],
  'town-square': [
    'personas',
    'agents',
    'llmAgents',
    'network',
    'k',
    'beta',
    'factKnowers',
    'rumorPlanter',
    'secretHolder',
    'turns',
    'networkView',
  ],
  sotopia: [
    'scenario',
    'pair',
    'mode',
    'data',
    'judge',
    'judgeModel',
    'temperature',
    'protocol',
    'templates',
    'seatModels',
  ],
};

function shape(def: WorldDefinition, params: Record<string, unknown>, seed: number): string {
  const w = def.create({ params, seed, rng: new RngStreams(seed) }) as {
    size: number;
    executor?: string;
    turnPolicy?: unknown;
    network?: { kind: string; size: number; edgeCount: number };
  };
  const turns = typeof w.turnPolicy === 'string' ? w.turnPolicy : w.turnPolicy?.constructor?.name;
  const net = w.network ? `${w.network.kind}/${w.network.size}/${w.network.edgeCount}` : 'none';
  return JSON.stringify([w.size, w.executor ?? 'xstate', turns ?? 'default', net]);
}

/** The changed parameters that a world file builds into its structure (found by building it both ways). */
function structuralChanges(
  def: WorldDefinition,
  parent: Record<string, unknown>,
  set: Record<string, unknown>,
  seed: number,
): string[] {
  if (def.needsLlm) return [];
  const base = shape(def, parent, seed);
  return Object.keys(set).filter((k) => shape(def, { ...parent, [k]: set[k] }, seed) !== base);
}

/**
 * Refuses a fork's `--set` of parameters that the fork cannot apply (see
 * {@link FIXED_AT_CREATION}; for a world file: those whose change alters the world's size,
 * executor, turn policy or network), naming them. Setting a parameter to the value it already
 * has is allowed.
 *
 * @throws ConfigError (exit 2).
 */
export function checkForkParams(
  def: WorldDefinition,
  parent: Record<string, unknown>,
  set: Record<string, unknown>,
  seed: number,
): void {
  const changed = Object.fromEntries(
    Object.entries(set).filter(([k, v]) => JSON.stringify(parent[k]) !== JSON.stringify(v)),
  );
  const table = FIXED_AT_CREATION[def.id];
  const fixed = table
    ? Object.keys(changed).filter((k) => table.includes(k))
    : structuralChanges(def, parent, changed, seed);
  if (fixed.length === 0) return;
  throw new ConfigError(
    `a fork cannot change ${fixed.join(', ')}: the world was built with ${fixed.map((k) => `${k}=${JSON.stringify(parent[k])}`).join(', ')}`,
    {
      hint: table
        ? `run the world again with --set instead; a fork can change: ${Object.keys(def.params.shape)
            .filter((k) => !table.includes(k))
            .join(', ')}`
        : 'run the world again with --set instead; a fork keeps what the world was built with (population, network, executor, turn policy), and other parameters apply from the fork tick',
    },
  );
}
