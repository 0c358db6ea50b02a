import { defineWorld, type WorldControl, type WorldView } from '../../src/index.ts';
import { buildSetup, initialOpinions, susceptibilities } from './build.ts';
import { encounterPolicy, encounterResponder, encounterSettled } from './encounter-policy.ts';
import { OPINION_KIND, opinionAgent } from './machine.ts';
import { maxDelta, opinionMetrics, opinionSummary } from './metrics.ts';
import { ENCOUNTER_MODELS, type OpinionParams, opinionParams } from './params.ts';
import { opinionPolicy } from './policy.ts';

/**
 * Tick 0: every agent holds x(0) = u and (synchronous models) sends it to its listeners, to
 * be read at tick 1.
 */
function seed(control: WorldControl, u: Float64Array, lambda: Float64Array | null, send: boolean): void {
  for (let i = 0; i < control.size; i++) {
    control.set(i, 'x', u[i]);
    control.set(i, 'u', u[i]);
    if (lambda) control.set(i, 'lambda', lambda[i]);
  }
  if (!send) return;
  for (let i = 0; i < control.size; i++)
    if ((control.network?.degree(i) ?? 0) > 0)
      control.send(i, { address: { to: 'neighbours' }, kind: OPINION_KIND, payload: u[i] });
}

/** How agents take turns and update: synchronous messages, or encounters under async activation. */
function dynamics(params: OpinionParams, setup: ReturnType<typeof buildSetup>) {
  if (!ENCOUNTER_MODELS.includes(params.model))
    return {
      policy: opinionPolicy(setup.weights),
      // Exact synchrony: every agent steps every tick on the opinions sent the tick before.
      turnPolicy: 'simultaneous' as const,
      stop: (view: WorldView) => (view.tick > 0 && maxDelta(view) < params.tolerance ? 'converged' : null),
    };
  return {
    policy: encounterPolicy,
    respond: encounterResponder,
    // Continuous time: every agent wakes at rate 1 (its one state is tagged active), one
    // encounter per wake
    turnPolicy: 'async' as const,
    ...(params.activation === 'by-state' ? { activation: {} } : {}),
    stop: (view: WorldView) => (encounterSettled(params, view) ? 'converged' : null),
  };
}

/**
 * The opinion world: numeric opinions updated synchronously by DeGroot averaging,
 * Friedkin–Johnsen anchoring, or Hegselmann–Krause bounded confidence, each agent hearing
 * its neighbours' opinions through one-tick messages; or by pairwise encounters in
 * continuous time (voter model, Deffuant–Weisbuch bounded confidence).
 */
export const world = defineWorld({
  id: 'opinion',
  version: '1.1.0',
  description:
    'Opinion dynamics: DeGroot, Friedkin-Johnsen and Hegselmann-Krause (synchronous); voter and Deffuant-Weisbuch (encounters)',
  params: opinionParams,
  networkParams: ['k', 'beta', 'm', 'blocks', 'pIn', 'pOut'],
  // read when the world is built: the network, the trust matrix, the initial opinions and
  // susceptibilities, the model (which picks the policy) and the executor
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
    'weights',
    'weightsFile',
    'initial',
    'opinionsFile',
    'share',
    'susceptibility',
    'susceptibilityFile',
    'lambda',
    'lambdaMin',
    'lambdaMax',
    'model',
    'executor',
    'activation',
  ],
  fileParams: {
    networkFile: {
      readWhen: (p) => p.network === 'csv' && p.weights !== 'file',
      needs: 'network=csv',
      network: true,
    },
    weightsFile: {
      readWhen: (p) => p.weights === 'file',
      needs: 'weights=file',
      network: true,
      replaces: ['network', 'networkFile'],
    },
    opinionsFile: { readWhen: (p) => p.initial === 'file', needs: 'initial=file' },
    susceptibilityFile: {
      readWhen: (p) => p.susceptibility === 'file' && p.model === 'friedkin-johnsen',
      needs: 'model=friedkin-johnsen with susceptibility=file',
    },
  },
  metrics: {
    mean: { label: 'mean opinion', unit: 'opinion', kind: 'mean', group: 'Opinions' },
    min: { label: 'lowest opinion', unit: 'opinion', kind: 'value', group: 'Opinions' },
    max: { label: 'highest opinion', unit: 'opinion', kind: 'value', group: 'Opinions' },
    variance: { label: 'variance of opinions', unit: 'opinion²', kind: 'value' },
    clusters: { label: 'opinion clusters', unit: 'clusters', kind: 'count' },
    maxDelta: { label: 'largest opinion change this tick', unit: 'opinion', kind: 'value' },
  },
  defaultTicks: 10_000,
  create({ params, rng, resolvePath }) {
    const setup = buildSetup(params, rng, resolvePath);
    const size = setup.topology.size;
    const u = initialOpinions(params, size, rng, setup, resolvePath);
    const lambda =
      params.model === 'friedkin-johnsen' ? susceptibilities(params, size, rng, setup, resolvePath) : null;
    return {
      size,
      agents: opinionAgent,
      executor: params.executor,
      network: setup.topology,
      ...dynamics(params, setup),
      ...(Object.keys(setup.inputs).length > 0 ? { inputs: setup.inputs } : {}),
      init: (control) => seed(control, u, lambda, !ENCOUNTER_MODELS.includes(params.model)),
      metrics: opinionMetrics(params),
      summary: opinionSummary(params, setup.weights),
    };
  },
  // 1.0.0 ran voter and Deffuant–Weisbuch on the rate-1 policy's event queue
  migrateParams: (params, fromVersion) =>
    fromVersion === '1.0.0' ? { ...params, activation: 'uniform' } : params,
});
