import { type Json, UsageError } from '../../core/index.ts';
import { type AgentSnapshot, type Message, runWorld } from '../../index.ts';
import { readLog, readRecordedRun } from '../../replay/index.ts';
import { loadWorldFromHeader } from '../load-world.ts';
import { replayServices } from './replay.ts';
import { intFlag } from './run.ts';

/** Options of `grapevine inspect`. */
export interface InspectCommandOptions {
  agent?: string;
  at?: string;
  json?: boolean;
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
  const agent = intFlag('agent', opts.agent);
  const size = h.size as number;
  if (agent !== undefined && agent >= size)
    throw new UsageError(`--agent ${agent} is not an agent: the population is 0..${size - 1}`);
  const { def } = await loadWorldFromHeader(h);
  const observed: { tick: number; messages: Message[] }[] = [];
  let snapshot: AgentSnapshot | undefined;
  let metrics: Json = {};
  await runWorld(def, {
    params: h.params as Record<string, unknown>,
    worldVersion: (h.world as { version: string }).version,
    seed: h.seed as number,
    ticks: at,
    level: 'minimal',
    ...replayServices(recorded),
    onStart: (view) => {
      if (agent !== undefined)
        view.bus
          .observe(agent)
          .subscribe((messages) => observed.push({ tick: view.tick, messages: [...messages] }));
      if (at === 0) snapshot = agent === undefined ? undefined : view.executor.snapshot(agent);
    },
    onTick: (tick, _max, view) => {
      if (tick === at && agent !== undefined) snapshot = view.executor.snapshot(agent);
    },
  });
  for await (const line of readLog(path, { verify: false })) {
    if (line.type === 'tick' && line.t === at) metrics = line.event.metrics as Json;
  }
  const report = {
    log: path,
    tick: at,
    agent,
    state: snapshot?.value,
    memory: snapshot?.context.mem,
    observed: observed.map((o) => ({ tick: o.tick, messages: o.messages })),
    metrics,
  };
  if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else printReport(report);
  return 0;
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
