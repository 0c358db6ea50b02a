import { chooseExecutor } from '../../../agent/index.ts';
import { ConfigError, RngStreams } from '../../../core/index.ts';
import type { WorldDefinition } from '../../../world/index.ts';

function shape(def: WorldDefinition, params: Record<string, unknown>, seed: number): string {
  const w = def.create({ params, seed, rng: new RngStreams(seed) });
  const turns = typeof w.turnPolicy === 'string' ? w.turnPolicy : w.turnPolicy?.constructor?.name;
  const net = w.network ? `${w.network.kind}/${w.network.size}/${w.network.edgeCount}` : 'none';
  const executor = chooseExecutor(w.agents, { declared: w.executor }).kind;
  // whether agents wake by state decides what the snapshot's schedule is (docs/TIME.md)
  const byState = (w as { activation?: unknown }).activation !== undefined;
  return JSON.stringify([w.size, executor, turns ?? 'default', net, byState]);
}

/** The changed parameters that a world builds into its structure (found by building it both ways). */
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
 * Refuses a fork's `--set` of parameters that the fork cannot apply, naming them: those the
 * world declares fixed at creation (`WorldDefinition.fixedAtCreation`), or, for a world that
 * declares none, those whose change alters the world's size, executor, turn policy or
 * network. Setting a parameter to the value it already has is allowed.
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
  const declared = def.fixedAtCreation;
  const fixed = declared
    ? Object.keys(changed).filter((k) => declared.includes(k))
    : structuralChanges(def, parent, changed, seed);
  if (fixed.length === 0) return;
  throw new ConfigError(
    `a fork cannot change ${fixed.join(', ')}: the world was built with ${fixed.map((k) => `${k}=${JSON.stringify(parent[k])}`).join(', ')}`,
    {
      hint: declared
        ? `run the world again with --set instead; a fork can change: ${Object.keys(def.params.shape)
            .filter((k) => !declared.includes(k))
            .join(', ')}`
        : 'run the world again with --set instead; a fork keeps what the world was built with (population, network, executor, turn policy and activation), and other parameters apply from the fork tick',
    },
  );
}
