import type { AgentExecutor, AgentMachine } from '../agent/index.ts';
import { ConfigError } from '../core/index.ts';
import type { WorldView } from './world-view.ts';

/**
 * Which agents wake under asynchronous activation (`turnPolicy: 'async'`), and how often
 * (docs/TIME.md). Without it every agent wakes at rate 1 whatever its state.
 */
export interface Activation {
  /**
   * Wake rate per state, by region and state name (`{ health: { infected: 0.7 } }`); states
   * not named are passive (rate 0) and never wake unless they have mail. An agent's rate is
   * the largest of its regions'. With neither this nor {@link rate}, the states tagged
   * `active` wake at rate 1 and the others are passive.
   */
  rates?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /**
   * Agent `agent`'s wake rate, when it depends on more than its state (its degree, its
   * memory, parameters); replaces {@link rates}. It may read only that agent and the
   * parameters and network: it is asked again after each step of the agent, each encounter
   * it answers that changes its state or memory, and each intervention, not when a
   * neighbour changes.
   */
  rate?: (agent: number, view: WorldView) => number;
  /**
   * True when {@link rate} also reads the agent's network neighbours (their state or
   * memory), as the voter model's share of disagreeing neighbours does: whenever an agent
   * changes (its step, an encounter it answers), the engine asks its neighbours' rates again
   * too, at a cost of one rate per neighbour.
   */
  neighbours?: boolean;
}

/** The problems of an `activation` declaration against the agent machine, one sentence each. */
export function activationProblems(activation: unknown, agents: AgentMachine | undefined): string[] {
  if (activation === undefined) return [];
  if (typeof activation !== 'object' || activation === null)
    return ['`activation` must be an object ({ rates } or { rate })'];
  const a = activation as Record<string, unknown>;
  if (a.rate !== undefined && typeof a.rate !== 'function')
    return ['`activation.rate` must be a function (agent, view) => rate'];
  if (a.neighbours !== undefined && typeof a.neighbours !== 'boolean')
    return ['`activation.neighbours` must be true or false'];
  if (a.neighbours === true && typeof a.rate !== 'function')
    return ['`activation.neighbours` needs `activation.rate`: only a rate function can read neighbours'];
  if (a.rates === undefined || !agents?.layout) return [];
  if (typeof a.rates !== 'object' || a.rates === null)
    return ['`activation.rates` must map region names to { state: rate }'];
  const problems: string[] = [];
  const layout = agents.layout;
  for (const [region, states] of Object.entries(a.rates as Record<string, unknown>)) {
    const r = layout.regions.indexOf(region);
    if (r <= 0) {
      problems.push(
        `\`activation.rates\` names region "${region}", not one of ${layout.regions.slice(1).join(', ')}`,
      );
      continue;
    }
    for (const [state, rate] of Object.entries((states ?? {}) as Record<string, unknown>)) {
      if (!layout.states[r].includes(state))
        problems.push(
          `\`activation.rates.${region}\` names state "${state}", not one of ${layout.states[r].join(', ')}`,
        );
      else if (typeof rate !== 'number' || !(rate >= 0 && rate < Number.POSITIVE_INFINITY))
        problems.push(
          `\`activation.rates.${region}.${state}\` must be a finite number ≥ 0, got ${String(rate)}`,
        );
    }
  }
  return problems;
}

/** Per region with a positive rate somewhere: its index and the rate of each of its states. */
function rateTables(activation: Activation, machine: AgentMachine): { region: number; rate: Float64Array }[] {
  const layout = machine.layout;
  const tables: { region: number; rate: Float64Array }[] = [];
  for (let r = 1; r < layout.regions.length; r++) {
    const name = layout.regions[r];
    const rate = Float64Array.from(layout.states[r], (state) => activation.rates?.[name]?.[state] ?? 0);
    if (rate.some((x) => x > 0)) tables.push({ region: r, rate });
  }
  return tables;
}

/**
 * The wake rate of each agent as its world declares it ({@link Activation}), read from the
 * executor's state on every call (no copy to keep in step).
 * @throws ConfigError when the declaration names a region or state the machine lacks.
 */
export function declaredRates(
  activation: Activation,
  executor: AgentExecutor,
  machine: AgentMachine,
  view: WorldView,
): (i: number) => number {
  const problems = activationProblems(activation, machine);
  if (problems.length)
    throw new ConfigError(`world activation: ${problems.join('; ')}`, {
      hint: 'see docs/TIME.md: rates by region and state of the agent machine',
    });
  const fn = activation.rate;
  if (fn) return (i) => fn(i, view);
  if (!activation.rates) {
    // the `active` tag: the executors keep a flag per agent in an active state
    const active = executor.activeMask();
    return (i) => active[i];
  }
  const tables = rateTables(activation, machine);
  if (tables.length === 0) return () => 0;
  if (tables.length === 1) {
    const { region, rate } = tables[0];
    return (i) => rate[executor.stateIndex(i, region)];
  }
  return (i) => {
    let best = 0;
    for (let k = 0; k < tables.length; k++) {
      const r = tables[k].rate[executor.stateIndex(i, tables[k].region)];
      if (r > best) best = r;
    }
    return best;
  };
}
