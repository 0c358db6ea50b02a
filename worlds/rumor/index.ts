import {
  ConfigError,
  defineWorld,
  networkFromParams,
  type RngStreams,
  type WorldControl,
} from '../../src/index.ts';
import { H, ROLE, ROLE_SLOT, rumorAgent } from './machine.ts';
import { rumorMetricSpecs, rumorMetrics, rumorSummary } from './metrics.ts';
import { type RumorParams, rumorParams } from './params.ts';
import { createRumorPolicy, rumorResponder } from './policy.ts';
import { rumorTheory } from './theory.ts';
import { drawThresholds } from './thresholds.ts';

/** Draws `count` distinct agents from the `purpose` stream, avoiding (and extending) `taken`: how tick-0 seeds are chosen. */
export function pickDistinct(
  count: number,
  size: number,
  rng: RngStreams,
  purpose: string,
  taken: Set<number>,
): number[] {
  if (count + taken.size > size)
    throw new ConfigError(`${count} ${purpose} do not fit in a population of ${size}`, {
      hint: 'lower insiders/spreaders or raise n',
    });
  const s = rng.stream(purpose);
  const out: number[] = [];
  while (out.length < count) {
    const i = s.int(size);
    if (taken.has(i)) continue;
    taken.add(i);
    out.push(i);
  }
  return out;
}

function seed(control: WorldControl, p: RumorParams, rng: RngStreams): void {
  // no draw can give a role when both fractions are 0: skip the population's draws (the
  // stream is this loop's own, so nothing else moves)
  if (p.skeptics + p.debunkers > 0) {
    const roles = rng.stream('roles');
    for (let i = 0; i < control.size; i++) {
      const u = roles.next();
      if (u < p.skeptics) control.executor.setSlot(i, ROLE_SLOT, ROLE.skeptic);
      else if (u < p.skeptics + p.debunkers) control.executor.setSlot(i, ROLE_SLOT, ROLE.debunker);
    }
  }
  const taken = new Set<number>();
  for (const i of pickDistinct(p.insiders, control.size, rng, 'insiders', taken)) plant(control, i, 'fact');
  for (const i of pickDistinct(p.spreaders, control.size, rng, 'spreaders', taken))
    plant(control, i, 'rumor');
}

function plant(control: WorldControl, i: number, item: 'fact' | 'rumor'): void {
  const x = H[item === 'fact' ? 0 : 1];
  control.executor.sendId(i, x.hear);
  control.executor.setSlot(i, x.src, i);
  control.executor.setSlot(i, x.at, 0);
}

/**
 * The rumour world: a true fact known to a few insiders and a false rumour planted by a
 * few spreaders compete on a social network, under a classic spreading model.
 */
export const world = defineWorld({
  id: 'rumor',
  version: '1.2.0',
  description:
    'A true fact and a false rumour spreading on a network (Daley-Kendall, Maki-Thompson, independent cascade, complex contagion, Watts threshold)',
  params: rumorParams,
  networkParams: ['k', 'beta', 'm', 'blocks', 'pIn', 'pOut'],
  fixedAtCreation: [
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
    'activation',
  ],
  fileParams: { networkFile: { readWhen: (p) => p.network === 'csv', needs: 'network=csv', network: true } },
  metrics: rumorMetricSpecs(),
  defaultTicks: 1000,
  create({ params, rng, resolvePath }) {
    if (params.skeptics + params.debunkers > 1) {
      throw new ConfigError(
        `skeptics (${params.skeptics}) + debunkers (${params.debunkers}) exceed the whole population`,
        {
          hint: 'the two fractions must add up to at most 1',
        },
      );
    }
    const { topology, inputs } = networkFromParams(params, rng.stream('network'), resolvePath);
    const phi = params.model === 'watts-threshold' ? drawThresholds(params, topology.size, rng) : null;
    const theory = rumorTheory(params);
    return {
      size: topology.size,
      agents: rumorAgent,
      executor: params.executor,
      policy: createRumorPolicy(phi),
      respond: rumorResponder,
      // 1.0.0 (message passing only) repeated a tick's draws when an agent woke twice in it
      freshRepeats: params.contact === 'instant',
      network: topology,
      turnPolicy: params.turns,
      // under async only spreaders (the `active` state) wake, at rate 1; the others read their mail
      ...(params.activation === 'by-state' ? { activation: {} } : {}),
      ...(inputs ? { inputs } : {}),
      init: (control) => seed(control, params, rng),
      metrics: rumorMetrics,
      stop: (view) =>
        view.tick > 0 && view.executor.activeCount() === 0 && view.pending() === 0 ? 'extinct' : null,
      summary: (history) => ({ ...rumorSummary(history), ...(theory ? { theory } : {}) }),
    };
  },
  // 1.0.0 had message passing only: its logs rerun with contact=delayed; before 1.2.0 async
  // woke every agent at rate 1: those logs rerun with activation=uniform
  migrateParams: (params, fromVersion) => {
    if (fromVersion === '1.0.0') return { ...params, contact: 'delayed', activation: 'uniform' };
    if (fromVersion === '1.1.0') return { ...params, activation: 'uniform' };
    return params;
  },
});
