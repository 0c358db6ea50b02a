import type { Json } from '../../../core/index.ts';
import type { Topology } from '../../../network/index.ts';
import type { RecordedRun } from '../../../replay/index.ts';
import { recordedExecutor, runWorld, type WorldDefinition, type WorldView } from '../../../world/index.ts';
import { replayServices } from '../../replay-services.ts';
import type { ObservedStep } from './view-types.ts';

export type { ObservedStep } from './view-types.ts';

/** What a rerun of a log recorded about the shown agents, tick by tick. */
export interface RerunTrace {
  /** The shown agents, as `choose` picked them. */
  agents: number[];
  /** Statechart regions after the lifecycle one, with their state names. */
  regions: { name: string; states: readonly string[] }[];
  /** Per region, per tick (aligned with the log's ticks): each shown agent's state index, one char each. */
  states: string[][];
  /** Per shown agent: its memory whenever it changed, as [tick, memory]. */
  memory: [number, Json][][];
  /** Per shown agent: what it observed. */
  observed: ObservedStep[][];
  /** The world's network, when it has one. */
  network: Topology | undefined;
}

/** Encodes small state indices as one character each (index 0 is '0'). */
function encodeRow(view: WorldView, region: number, agents: readonly number[]): string {
  let row = '';
  for (const a of agents) row += String.fromCharCode(48 + view.executor.stateIndex(a, region));
  return row;
}

/**
 * Reruns a recorded run (recorded LLM replies, no network) to its last tick and records,
 * for the given agents only, their states at the end of every tick, their memory when it
 * changes and every observation, as `grapevine inspect` does for one agent. The log holds
 * no per-tick agent states, so this is the one part of the viewer that reruns the world.
 * `choose` picks the agents once the world (and its network) is built.
 */
export async function traceRun(
  def: WorldDefinition,
  recorded: RecordedRun,
  choose: (network: Topology | undefined) => number[],
): Promise<RerunTrace> {
  const h = recorded.header;
  const ticks = recorded.chain.ticks;
  const trace: RerunTrace = {
    agents: [],
    regions: [],
    states: [],
    memory: [],
    observed: [],
    network: undefined,
  };
  let agents: number[] = [];
  let lastMem: string[] = [];
  const take = (view: WorldView) => {
    trace.regions.forEach((_, r) => {
      trace.states[r].push(encodeRow(view, r + 1, agents));
    });
    agents.forEach((a, k) => {
      const mem = view.executor.snapshot(a).context.mem as Json;
      const text = JSON.stringify(mem);
      if (text !== lastMem[k]) trace.memory[k].push([view.tick, mem]);
      lastMem[k] = text;
    });
  };
  await runWorld(def, {
    params: h.params as Record<string, unknown>,
    worldVersion: (h.world as { version: string }).version,
    seed: h.seed as number,
    ticks: ticks[ticks.length - 1] ?? 0,
    level: 'minimal',
    executor: recordedExecutor(h),
    ...replayServices(recorded),
    interventionsAt: (t) => recorded.interventions.get(t) ?? [],
    onStart: (view) => {
      trace.network = view.network;
      agents = choose(view.network);
      trace.agents = agents;
      trace.memory = agents.map(() => []);
      trace.observed = agents.map(() => []);
      lastMem = agents.map(() => '');
      trace.regions = view.executor.regionNames
        .slice(1)
        .map((name, r) => ({ name, states: view.executor.stateNames(r + 1) }));
      trace.states = trace.regions.map(() => []);
      agents.forEach((a, k) => {
        view.bus.observe(a).subscribe((messages) => {
          trace.observed[k].push({ tick: view.tick, messages: [...messages] });
        });
      });
    },
    // tick 0's line is written once init has run: its states are taken here, not at onStart
    onReady: (engine) => take(engine.view),
    onTick: (_tick, _max, view) => take(view),
  });
  return trace;
}
