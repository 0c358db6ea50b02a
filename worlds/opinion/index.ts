import { defineWorld, type WorldControl } from '../../src/index.ts';
import { buildSetup, initialOpinions, susceptibilities } from './build.ts';
import { OPINION_KIND, opinionAgent } from './machine.ts';
import { maxDelta, opinionMetrics, opinionSummary } from './metrics.ts';
import { opinionParams } from './params.ts';
import { opinionPolicy } from './policy.ts';

/** Tick 0: every agent holds x(0) = u and sends it to its listeners, to be read at tick 1. */
function seed(control: WorldControl, u: Float64Array, lambda: Float64Array | null): void {
  for (let i = 0; i < control.size; i++) {
    control.set(i, 'x', u[i]);
    control.set(i, 'u', u[i]);
    if (lambda) control.set(i, 'lambda', lambda[i]);
  }
  for (let i = 0; i < control.size; i++)
    if ((control.network?.degree(i) ?? 0) > 0)
      control.send(i, { address: { to: 'neighbours' }, kind: OPINION_KIND, payload: u[i] });
}

/**
 * The opinion world: numeric opinions updated synchronously by DeGroot averaging,
 * Friedkin–Johnsen anchoring, or Hegselmann–Krause bounded confidence, each agent hearing
 * its neighbours' opinions through one-tick messages.
 */
export const world = defineWorld({
  id: 'opinion',
  version: '1.0.0',
  description: 'Opinion dynamics: DeGroot, Friedkin-Johnsen and Hegselmann-Krause, synchronous updates',
  params: opinionParams,
  defaultTicks: 10_000,
  create({ params, rng }) {
    const setup = buildSetup(params, rng);
    const size = setup.topology.size;
    const u = initialOpinions(params, size, rng, setup);
    const lambda = params.model === 'friedkin-johnsen' ? susceptibilities(params, size, rng, setup) : null;
    return {
      size,
      agents: opinionAgent,
      executor: params.executor,
      policy: opinionPolicy(setup.weights),
      network: setup.topology,
      // Exact synchrony: every agent steps every tick on the opinions sent the tick before.
      turnPolicy: 'simultaneous',
      ...(Object.keys(setup.inputs).length > 0 ? { inputs: setup.inputs } : {}),
      init: (control) => seed(control, u, lambda),
      metrics: opinionMetrics(params),
      stop: (view) => (view.tick > 0 && maxDelta(view) < params.tolerance ? 'converged' : null),
      summary: opinionSummary(params, setup.weights),
    };
  },
});
