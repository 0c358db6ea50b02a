import { type AnyStateMachine, assign, setup } from 'xstate';
import { ConfigError } from '../core/index.ts';
import type { AgentMachineSpec, RegionSpec } from './agent-machine-spec.ts';
import { MachineLayout } from './machine-layout.ts';

/** Event that writes memory slots: `{ type: 'grapevine.memory', patch }`. */
export const MEMORY_EVENT = 'grapevine.memory';
/** Lifecycle region name and its events. */
export const LIFE_REGION = 'life';
/** Lifecycle event: the agent receives its inbox and starts deliberating. */
export const OBSERVE = 'OBSERVE';
/** Lifecycle event: the agent's decision is committed; it goes back to idle. */
export const COMMIT = 'COMMIT';

/** Context of every grapevine agent actor. */
export interface AgentContext {
  mem: Record<string, unknown>;
}

/** A world's agent machine: the spec and the XState machine built from it. */
export interface AgentMachine {
  readonly spec: AgentMachineSpec;
  readonly machine: AnyStateMachine;
  /** Numeric handles of regions, states, events and slots. */
  readonly layout: MachineLayout;
}

/**
 * Builds the agent statechart: a parallel machine with a `life` region (idle ->
 * deliberating -> idle) and one region per entry of `spec.regions`, with memory in context.
 */
export function defineAgentMachine(spec: AgentMachineSpec): AgentMachine {
  validateSpec(spec);
  const mem: Record<string, unknown> = {};
  for (const [k, slot] of Object.entries(spec.memory ?? {})) mem[k] = slot.initial;
  const states: Record<string, unknown> = {
    [LIFE_REGION]: {
      initial: 'idle',
      states: { idle: { on: { [OBSERVE]: 'deliberating' } }, deliberating: { on: { [COMMIT]: 'idle' } } },
    },
  };
  for (const [name, region] of Object.entries(spec.regions)) states[name] = regionConfig(region);
  const machine = setup({
    types: {} as { context: AgentContext; events: { type: string; patch?: Record<string, unknown> } },
  }).createMachine({
    id: spec.id,
    type: 'parallel',
    context: { mem },
    on: {
      [MEMORY_EVENT]: {
        actions: assign(({ context, event }) => ({ mem: { ...context.mem, ...(event.patch ?? {}) } })),
      },
    },
    // biome-ignore lint/suspicious/noExplicitAny: generated config; checked by validateSpec
    states: states as any,
  });
  const layout = new MachineLayout(spec, {
    name: LIFE_REGION,
    states: ['idle', 'deliberating'],
    events: [OBSERVE, COMMIT],
  });
  return { spec, machine, layout };
}

function regionConfig(region: RegionSpec): unknown {
  const states: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(region.states)) {
    states[name] = { ...(s.on ? { on: s.on } : {}), ...(s.tags ? { tags: s.tags } : {}) };
  }
  return { initial: region.initial, states };
}

function validateSpec(spec: AgentMachineSpec): void {
  for (const [name, region] of Object.entries(spec.regions)) {
    if (name === LIFE_REGION)
      throw new ConfigError(`agent machine "${spec.id}": region name "${LIFE_REGION}" is reserved`, {
        hint: 'rename the region',
      });
    if (!(region.initial in region.states)) {
      throw new ConfigError(
        `agent machine "${spec.id}": region "${name}" starts in unknown state "${region.initial}"`,
        {
          hint: `use one of: ${Object.keys(region.states).join(', ')}`,
        },
      );
    }
    for (const [sname, s] of Object.entries(region.states)) {
      for (const [ev, target] of Object.entries(s.on ?? {})) {
        if (!(target in region.states)) {
          throw new ConfigError(
            `agent machine "${spec.id}": ${name}.${sname} on ${ev} goes to unknown state "${target}"`,
            {
              hint: 'targets must be states of the same region',
            },
          );
        }
      }
    }
  }
}
