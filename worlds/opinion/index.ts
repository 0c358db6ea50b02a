import {
  ConfigError,
  defineWorld,
  type Topology,
  type WorldControl,
  type WorldView,
} from '../../src/index.ts';
import { buildSetup, initialOpinions, susceptibilities } from './build.ts';
import { encounterPolicy, encounterResponder, encounterSettled } from './encounter-policy.ts';
import { OPINION_KIND, opinionAgent } from './machine.ts';
import { maxDelta, opinionMetrics, opinionSummary } from './metrics.ts';
import { ENCOUNTER_MODELS, type OpinionParams, opinionParams } from './params.ts';
import { opinionPolicy } from './policy.ts';
import { discordancePolicy, discordanceRate } from './voter-discordance.ts';
import { VoterTally } from './voter-tally.ts';

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

/** Counts of the voter's opinions for new runs; none for rate-1 runs, which scan as 1.1.0 did. */
function voterTally(params: OpinionParams, network: Topology): VoterTally | null {
  if (params.model !== 'voter' || params.voterRule === 'rate-1') return null;
  // no neighbour counts on the complete graph, where it wakes at rate 1
  return new VoterTally(params.network === 'complete' ? null : network);
}

/**
 * Continuous time: every agent wakes at rate 1 (its one state is tagged active), one
 * encounter per wake; or, for the voter by discordance on a network, only agents with a
 * disagreeing neighbour wake, at the share of such neighbours (docs/TIME.md).
 */
function encounterDynamics(params: OpinionParams, tally: VoterTally | null) {
  const byNeighbours = tally !== null && params.network !== 'complete';
  if (byNeighbours && params.activation === 'uniform')
    throw new ConfigError('voterRule=discordance needs activation=by-state', {
      hint: 'activation=uniform wakes every agent at rate 1: add --set voterRule=rate-1',
    });
  let activation = {};
  if (byNeighbours) activation = { rate: discordanceRate(tally), neighbours: true };
  return {
    policy: byNeighbours ? discordancePolicy(tally) : encounterPolicy(tally),
    respond: encounterResponder,
    turnPolicy: 'async' as const,
    ...(params.activation === 'by-state' ? { activation } : {}),
    stop: (view: WorldView) => (encounterSettled(params, view, tally) ? 'converged' : null),
  };
}

/** How agents take turns and update: synchronous messages, or encounters under async activation. */
function dynamics(params: OpinionParams, setup: ReturnType<typeof buildSetup>, tally: VoterTally | null) {
  if (ENCOUNTER_MODELS.includes(params.model)) return encounterDynamics(params, tally);
  return {
    policy: opinionPolicy(setup.weights),
    // Exact synchrony: every agent steps every tick on the opinions sent the tick before.
    turnPolicy: 'simultaneous' as const,
    stop: (view: WorldView) => (view.tick > 0 && maxDelta(view) < params.tolerance ? 'converged' : null),
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
  version: '1.2.0',
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
    'voterRule',
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
    const tally = voterTally(params, setup.topology);
    return {
      size,
      agents: opinionAgent,
      executor: params.executor,
      network: setup.topology,
      ...dynamics(params, setup, tally),
      ...(Object.keys(setup.inputs).length > 0 ? { inputs: setup.inputs } : {}),
      init: (control) => seed(control, u, lambda, !ENCOUNTER_MODELS.includes(params.model)),
      metrics: opinionMetrics(params, tally),
      summary: opinionSummary(params, setup.weights, tally),
    };
  },
  // 1.0.0 ran voter and Deffuant–Weisbuch on the rate-1 policy's event queue; 1.0.0 and
  // 1.1.0 woke voter agents at rate 1 and scanned the opinions every tick
  migrateParams: (params, fromVersion) => {
    if (fromVersion === '1.0.0') return { ...params, activation: 'uniform', voterRule: 'rate-1' };
    return fromVersion === '1.1.0' ? { ...params, voterRule: 'rate-1' } : params;
  },
});
