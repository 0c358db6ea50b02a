import type { AgentSnapshot } from '../../agent/index.ts';
import type { Message } from '../../bus/index.ts';
import { type Json, UsageError } from '../../core/index.ts';
import { readLog, readRecordedRun } from '../../replay/index.ts';
import { runWorld } from '../../world/index.ts';
import { intFlag } from '../flags.ts';
import { loadWorldFromHeader } from '../load-world.ts';
import { replayServices } from '../replay-services.ts';

/** Options of `grapevine inspect`. */
export interface InspectCommandOptions {
  agent?: string;
  at?: string;
  json?: boolean;
  /** The world file that wrote the log (never taken from the log itself). */
  world?: string;
}

/**
 * `grapevine inspect <log> [--agent ID] [--at TICK]`: reruns the log's run up to TICK and
 * shows what the agent had observed and the state it was in at the end of that tick.
 */
export async function inspectCommand(path: string, opts: InspectCommandOptions): Promise<number> {
  const recorded = await readRecordedRun(path);
  const h = recorded.header;
  const lastTick = recorded.chain.ticks[recorded.chain.ticks.length - 1];
  const at = intFlag('at', opts.at) ?? lastTick;
  if (at > lastTick) throw new UsageError(`--at ${at} is beyond the log's last tick ${lastTick}`);
  const size = h.size as number;
  const agents = parseAgents(opts.agent, size, Boolean(opts.json));
  const { def } = await loadWorldFromHeader(h, { worldFile: opts.world });
  const observed = new Map<number, { tick: number; messages: Message[] }[]>(agents.map((a) => [a, []]));
  const snapshots = new Map<number, AgentSnapshot>();
  const take = (view: { executor: { snapshot(i: number): AgentSnapshot } }) => {
    for (const a of agents) snapshots.set(a, view.executor.snapshot(a));
  };
  let metrics: Json = {};
  await runWorld(def, {
    params: h.params as Record<string, unknown>,
    worldVersion: (h.world as { version: string }).version,
    seed: h.seed as number,
    ticks: at,
    level: 'minimal',
    ...replayServices(recorded),
    interventionsAt: (t) => recorded.interventions.get(t) ?? [],
    onStart: (view) => {
      for (const a of agents)
        view.bus
          .observe(a)
          .subscribe((messages) => observed.get(a)?.push({ tick: view.tick, messages: [...messages] }));
      if (at === 0) take(view);
    },
    onTick: (tick, _max, view) => {
      if (tick === at) take(view);
    },
  });
  for await (const line of readLog(path, { verify: false })) {
    if (line.type === 'tick' && line.t === at) metrics = line.event.metrics as Json;
  }
  const reports = agents.map((agent) => ({
    agent,
    state: snapshots.get(agent)?.value,
    memory: snapshots.get(agent)?.context.mem,
    observed: observed.get(agent) ?? [],
  }));
  if (opts.json) {
    const one = reports.length === 1 && opts.agent !== 'all' && !opts.agent?.includes(',');
    const body = one ? reports[0] : { agents: reports };
    process.stdout.write(`${JSON.stringify({ log: path, tick: at, metrics, ...body })}\n`);
  } else if (reports.length === 0) printReport({ tick: at, metrics, observed: [] });
  else for (const r of reports) printReport({ tick: at, metrics, ...r });
  return 0;
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
      throw new UsageError(`--agent ${agent} is not an agent: the population is 0..${size - 1}`);
    return agent;
  });
}

function printReport(r: {
  tick: number;
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
  process.stdout.write(`observed ${total} messages in ${r.observed.length} steps up to tick ${r.tick}\n`);
  for (const o of r.observed) {
    for (const m of o.messages)
      process.stdout.write(
        `  t=${o.tick} from ${m.from} ${m.kind}${m.item ? ` ${m.item}` : ''}${m.payload === undefined ? '' : ` ${JSON.stringify(m.payload)}`} (sent t=${m.sentAt})\n`,
      );
  }
}
