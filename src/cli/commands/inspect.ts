import type { AgentSnapshot } from '../../agent/index.ts';
import type { Message } from '../../bus/index.ts';
import { type Json, UsageError } from '../../core/index.ts';
import {
  type RecordedRun,
  readLog,
  readRecordedRun,
  recordsToReplay,
  restorePoint,
} from '../../replay/index.ts';
import { type EngineState, recordedExecutor, runWorld, type WorldDefinition } from '../../world/index.ts';
import { intFlag } from '../flags.ts';
import { inputFileOptions, loadWorldFromHeader } from '../load-world.ts';
import type { LogWorldOptions } from '../log-world-options.ts';
import { replayServices } from '../replay-services.ts';

/** Options of `grapevine inspect`. */
export interface InspectCommandOptions extends LogWorldOptions {
  agent?: string;
  at?: string;
  json?: boolean;
}

/**
 * `grapevine inspect <log> [--agent ID|ID,ID|all] [--at TICK]`: restores the nearest
 * snapshot at or before TICK, reruns the recorded ticks up to it, and shows the state the
 * agents were in at the end of that tick and what they observed since the snapshot.
 */
export async function inspectCommand(path: string, opts: InspectCommandOptions): Promise<number> {
  const asked = intFlag('at', opts.at);
  const recorded = await readRecordedRun(path, { restoreTicks: [asked ?? Number.MAX_SAFE_INTEGER] });
  const h = recorded.header;
  const lastTick = recorded.chain.ticks[recorded.chain.ticks.length - 1];
  const at = asked ?? lastTick;
  if (at > lastTick) throw new UsageError(`--at ${at} is beyond the log's last tick ${lastTick}`);
  const agents = parseAgents(opts.agent, h.size as number, Boolean(opts.json));
  const { def } = await loadWorldFromHeader(h, {
    worldFile: opts.world,
    logPath: path,
    ...inputFileOptions(opts),
    check: opts.check,
  });
  const seen = await rerunTo(def, recorded, at, agents);
  let metrics: Json = {};
  for await (const line of readLog(path, { verify: false })) {
    if (line.type === 'tick' && line.t === at) metrics = line.event.metrics as Json;
    if (line.t > at) break;
  }
  const reports = agents.map((agent) => ({
    agent,
    state: seen.snapshots.get(agent)?.value,
    memory: seen.snapshots.get(agent)?.context.mem,
    observed: seen.observed.get(agent) ?? [],
  }));
  const head = { log: path, tick: at, observedFrom: seen.from, metrics };
  if (opts.json) {
    const one = reports.length === 1 && opts.agent !== 'all' && !opts.agent?.includes(',');
    const body = one ? reports[0] : { agents: reports };
    process.stdout.write(`${JSON.stringify({ ...head, ...body })}\n`);
  } else if (reports.length === 0) printReport({ ...head, observed: [] });
  else for (const r of reports) printReport({ ...head, ...r });
  return 0;
}

/**
 * Reruns the recorded run up to the end of tick `at` from the nearest snapshot at or
 * before it (from tick 0 when there is none), with recorded LLM replies; returns the
 * agents' snapshots at `at` and the messages they observed after the restored tick.
 */
async function rerunTo(
  def: WorldDefinition,
  recorded: RecordedRun,
  at: number,
  agents: readonly number[],
): Promise<{ from: number; snapshots: Map<number, AgentSnapshot>; observed: Map<number, Observed[]> }> {
  const h = recorded.header;
  const snap = at === 0 ? undefined : restorePoint(recorded, at);
  const restore = snap
    ? (recorded.snapshotStates.get(snap.seq) as unknown as EngineState | undefined)
    : undefined;
  const observed = new Map<number, Observed[]>(agents.map((a) => [a, []]));
  const snapshots = new Map<number, AgentSnapshot>();
  const take = (view: { executor: { snapshot(i: number): AgentSnapshot } }) => {
    for (const a of agents) snapshots.set(a, view.executor.snapshot(a));
  };
  const replay = restore ? { ...recorded, llmRecords: recordsToReplay(recorded, at) } : recorded;
  await runWorld(def, {
    params: h.params as Record<string, unknown>,
    worldVersion: (h.world as { version: string }).version,
    seed: h.seed as number,
    ticks: at,
    level: 'minimal',
    executor: recordedExecutor(h),
    restore,
    ...replayServices(replay),
    interventionsAt: (t) => recorded.interventions.get(t) ?? [],
    onStart: (view) => {
      for (const a of agents)
        view.bus
          .observe(a)
          .subscribe((messages) => observed.get(a)?.push({ tick: view.tick, messages: [...messages] }));
    },
    // tick 0 once the world's init ran, or the restored snapshot's tick: no tick runs after
    // either when it is the one asked for
    onReady: (engine) => {
      if (engine.view.tick === at) take(engine.view);
    },
    onTick: (tick, _max, view) => {
      if (tick === at) take(view);
    },
  });
  return { from: restore ? snap!.tick : 0, snapshots, observed };
}

/** The messages an agent took from its inbox at one tick. */
interface Observed {
  tick: number;
  messages: Message[];
}

/** `--agent 3`, `--agent 1,2,5` or `--agent all` (with --json), checked against the population. */
function parseAgents(spec: string | undefined, size: number, json: boolean): number[] {
  if (spec === undefined) return [];
  if (spec === 'all') {
    if (!json)
      throw new UsageError('--agent all needs --json', { hint: 'add --json, or name agents: --agent 1,2,3' });
    return Array.from({ length: size }, (_, i) => i);
  }
  return spec.split(',').map((part) => {
    const agent = intFlag('agent', part.trim()) as number;
    if (agent >= size)
      throw new UsageError(`--agent ${agent} is not an agent: the population is 0..${size - 1}`, {
        hint: `give an agent from 0 to ${size - 1}, a comma list, or all (with --json)`,
      });
    return agent;
  });
}

function printReport(r: {
  tick: number;
  observedFrom: number;
  agent?: number;
  state?: Json;
  memory?: Json;
  metrics: Json;
  observed: { tick: number; messages: Message[] }[];
}): void {
  process.stdout.write(`tick ${r.tick} metrics ${JSON.stringify(r.metrics)}\n`);
  if (r.agent === undefined) return;
  process.stdout.write(
    `agent ${r.agent} at the end of tick ${r.tick}\nstate  ${JSON.stringify(r.state)}\nmemory ${JSON.stringify(r.memory)}\n`,
  );
  const total = r.observed.reduce((n, o) => n + o.messages.length, 0);
  const since = r.observedFrom > 0 ? ` after tick ${r.observedFrom} (the snapshot inspect starts from)` : '';
  process.stdout.write(
    `observed ${total} messages in ${r.observed.length} steps${since} up to tick ${r.tick}\n`,
  );
  for (const o of r.observed) {
    for (const m of o.messages)
      process.stdout.write(
        `  t=${o.tick} from ${m.from} ${m.kind}${m.item ? ` ${m.item}` : ''}${m.payload === undefined ? '' : ` ${JSON.stringify(m.payload)}`} (sent t=${m.sentAt})\n`,
      );
  }
}
