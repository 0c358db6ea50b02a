/**
 * Benchmark for LLM-backed agents: what the engine adds around each LLM decision.
 *
 *   npx tsx bench/studies/llm-decisions.ts [--decisions 1000] [--concurrency 64] [--latency-ms 50]
 *     [--repeat 3] [--server both|in-process|child] [--profile]
 *
 * A minimal world (below: 64 agents on the XState executor, simultaneous turns; each agent's
 * async policy makes exactly one `decideStructured` call per tick with a small JSON schema,
 * sends one message and stores a little memory) runs for ceil(decisions / agents) ticks
 * through `runWorld`, three ways, each `--repeat` times (the table gives the median):
 *
 * 1. live: the shipped local server (fixed `latencyMs`, no faults), in this process and/or
 *    as `grapevine serve-llm` in a child process (`--server`), and the LLM opened exactly as
 *    `grapevine run` opens it (`openLiveLlm`: record, budget, concurrency, retry, LangChain
 *    ChatOpenAI over HTTP), with a real `LogWriter` (bench/out/llm-decisions-live-*.ndjson).
 *    Compared with the ideal decisions / concurrency x latency.
 * 2. instant: the same world with an in-process port that answers at once with a valid JSON
 *    reply (a test double of the network), behind a `RecordingPort` whose records go to the
 *    log like the live stack's: wall / decisions is the engine's overhead per decision.
 * 3. replay: the first live series' log read back (`readRecordedRun`) and rerun (`rerunLog`)
 *    with the replay LLM (`openReplayLlm`), verified line by line: decisions per second.
 *
 * 2 and 3 also run a what-if variant whose world passes `params.json` precomputed once per
 * agent instead of letting `decideStructured` convert the zod schema on every call (same
 * requests, same log, same digest).
 *
 * `--profile` writes CPU profiles of the last run of each kind to
 * bench/out/llm-decisions-{live-in-process,live-child,instant,replay}.cpuprofile (read them with
 * `npx tsx bench/tools/cpuprofile-summary.ts <file>`; profiled times are inflated).
 * Prints a Markdown table and writes the figures to bench/out/llm-decisions.json.
 */

import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openLiveLlm, openReplayLlm, resolveRunLlm } from '../../src/cli/llm-session.ts';
import {
  type Decision,
  defineAgentMachine,
  defineWorld,
  type Json,
  RngStreams,
  type RunOptions,
  type RunResult,
  runWorld,
  type StepContext,
  type WorldDefinition,
  z,
} from '../../src/index.ts';
import {
  type ChatMessage,
  decideStructured,
  InputBuffer,
  type LlmCallRecord,
  type LlmPort,
  type LlmReply,
  type LlmRequest,
  RecordingPort,
  startLocalLlmServer,
} from '../../src/public/llm.ts';
import { LogWriter, type RecordedRun, readRecordedRun, rerunLog } from '../../src/replay/index.ts';
import { startChildLlmServer } from '../tools/child-llm-server.ts';
import { InspectorProfile } from '../tools/inspector-profile.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, '..', 'out');

/** The issue's targets. */
export const TARGETS = { overheadMsPerDecision: 0.2, replayDecisionsPerSecond: 50_000 } as const;

// ---------------------------------------------------------------------------------------------
// The world: every agent is always active and decides once per tick through the LLM.

const ACTIONS = ['tell', 'ask'] as const;
const SCHEMA_NAME = 'bench_action';
const FACT = 'The well by the mill runs dry on market days.';

/** The agents' statechart: one region whose only state is `active` (everyone acts every tick). */
const benchAgent = defineAgentMachine({
  id: 'bench-llm-agent',
  regions: { mode: { initial: 'deciding', states: { deciding: { tags: ['active'] } } } },
});

/** What each agent keeps between ticks (a JSON memory slot; a type alias, so it is `Json`). */
type Notes = {
  decisions: number;
  lastAction: string;
  lastTo: string;
  lastText: string;
  heard: number;
};

const nameOf = (i: number): string => `a${i}`;

/** Three contacts on a ring: the previous agent and the next two. */
function contactsOf(i: number, n: number): number[] {
  return [(i + n - 1) % n, (i + 1) % n, (i + 2) % n];
}

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 3)}...` : s);

interface Agent {
  name: string;
  contacts: number[];
  contactNames: string[];
  schema: z.ZodType<{ action: (typeof ACTIONS)[number]; to: string; text: string }>;
  /** The JSON Schema `decideStructured` would derive, when the world precomputes it. */
  json?: { name: string; schema: Record<string, Json> };
  fallback: { action: (typeof ACTIONS)[number]; to: string; text: string };
}

interface Bench {
  agents: Agent[];
  llm: LlmPort;
  model: string;
  seed: number;
  fallbacks: { fallbacks: number };
}

/** One agent's step: reads its inbox and notes now, asks the model, decides after the reply. */
function decide(b: Bench, ctx: StepContext<unknown>): Promise<Decision> {
  const i = ctx.agent;
  const tick = ctx.tick;
  const self = b.agents[i];
  const heard: string[] = [];
  for (const m of ctx.inbox) {
    const text = (m.payload as { text?: string } | undefined)?.text ?? '';
    heard.push(`- ${nameOf(m.from)}: ${clip(text, 120)}`);
  }
  const notes = ctx.get('notes') as Notes | undefined;
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: `Name: ${self.name}\nGoal: Keep your contacts informed.\nYou know:\n- ${FACT}${notes ? `\n- You last told ${notes.lastTo}: ${notes.lastText}` : ''}`,
    },
    {
      role: 'user',
      content: `Tick ${tick}. Decisions so far: ${notes?.decisions ?? 0}.\nRecent messages:\n${heard.slice(-3).join('\n') || '- (none)'}\nAllowed actions: ${ACTIONS.join(', ')}\nContacts: ${self.contactNames.join(', ')}`,
    },
  ];
  const request: LlmRequest = {
    caller: String(i),
    tick,
    purpose: 'decide',
    messages,
    params: {
      model: b.model,
      temperature: 0,
      maxTokens: 120,
      seed: b.seed,
      ...(self.json ? { json: self.json } : {}),
    },
  };
  const decisions = notes?.decisions ?? 0;
  const heardCount = heard.length;
  return (async () => {
    const r = await decideStructured(b.llm, request, self.schema, {
      fallback: self.fallback,
      counters: b.fallbacks,
      name: SCHEMA_NAME,
    });
    const a = r.value;
    const k = self.contactNames.indexOf(a.to);
    const to = self.contacts[Math.max(k, 0)];
    const text = clip(a.text, 200);
    const next: Notes = {
      decisions: decisions + 1,
      lastAction: a.action,
      lastTo: nameOf(to),
      lastText: clip(text, 60),
      heard: heardCount,
    };
    return {
      memory: { notes: next },
      messages: [{ address: { to: 'agent', id: to }, kind: a.action, payload: { text } }],
    };
  })();
}

/**
 * The benchmark world (not a built-in: a replay is handed this definition directly). With
 * `precomputedSchema`, each agent's request carries `params.json` computed once at creation,
 * exactly what `decideStructured` derives from the zod schema on every call: the requests,
 * and so the logs, are the same, only cheaper to build.
 */
export function makeBenchWorld(precomputedSchema: boolean) {
  return defineWorld({
    id: 'bench-llm-decisions',
    version: '1.0.0',
    description: 'Every agent makes one structured LLM decision per tick and sends one message',
    params: z.object({ agents: z.number().int().min(4).default(64).describe('Population size') }),
    needsLlm: true,
    defaultTicks: 16,
    create({ params, seed, llm, model, fallbacks }) {
      const n = params.agents;
      const agents: Agent[] = [];
      for (let i = 0; i < n; i++) {
        const contacts = contactsOf(i, n);
        const contactNames = contacts.map(nameOf) as [string, ...string[]];
        const schema = z.object({ action: z.enum(ACTIONS), to: z.enum(contactNames), text: z.string() });
        agents.push({
          name: nameOf(i),
          contacts,
          contactNames,
          schema,
          ...(precomputedSchema ? { json: { name: SCHEMA_NAME, schema: jsonSchemaOf(schema) } } : {}),
          fallback: { action: 'ask', to: contactNames[0], text: 'Anything new?' },
        });
      }
      const b: Bench = {
        agents,
        llm: llm!,
        model: model ?? 'grapevine-local',
        seed,
        fallbacks: fallbacks ?? { fallbacks: 0 },
      };
      return {
        size: n,
        agents: benchAgent,
        executor: 'xstate',
        turnPolicy: 'simultaneous',
        policy: (ctx) => decide(b, ctx),
        metrics: () => ({ fallbacks: b.fallbacks.fallbacks }),
      };
    },
  });
}

/** As `decideStructured` derives it: the zod schema's JSON Schema without `$schema`. */
function jsonSchemaOf(schema: z.ZodType): Record<string, Json> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema) as Record<string, Json>;
  return rest;
}

export const benchWorld = makeBenchWorld(false);
const benchWorldPrecomputed = makeBenchWorld(true);

// ---------------------------------------------------------------------------------------------
// The instant port: a test double of the network that answers a valid reply at once.

/** Answers every request at once with a JSON action that fits the bench world's schema. */
class InstantPort implements LlmPort {
  calls = 0;
  constructor(private readonly n: number) {}
  async complete(request: LlmRequest): Promise<LlmReply> {
    this.calls++;
    const i = Number(request.caller);
    const to = nameOf(contactsOf(i, this.n)[request.tick % 3]);
    const text = JSON.stringify({
      action: ACTIONS[(i + request.tick) % 2],
      to,
      text: `Hello ${to}, ${nameOf(i)} here at tick ${request.tick}: ${FACT}`,
    });
    return { text, usage: { input: 120, output: 30 }, model: request.params.model, attempts: [] };
  }
}

/** What the CLI's session does with each record: buffer it for the tick's commit. */
function recordInto(inputs: InputBuffer, counter: { calls: number }): (record: LlmCallRecord) => void {
  return (record) => {
    counter.calls++;
    inputs.push({ type: 'llm', caller: record.caller, fields: record as unknown as Record<string, unknown> });
  };
}

// ---------------------------------------------------------------------------------------------
// Measurements.

type ServerMode = 'in-process' | 'child';

interface Args {
  decisions: number;
  concurrency: number;
  latencyMs: number;
  agents: number;
  seed: number;
  repeat: number;
  servers: ServerMode[];
  profile: boolean;
}

function parse(): Args {
  const { values } = parseArgs({
    options: {
      decisions: { type: 'string', default: '1000' },
      concurrency: { type: 'string', default: '64' },
      'latency-ms': { type: 'string', default: '50' },
      agents: { type: 'string', default: '64' },
      seed: { type: 'string', default: '1' },
      repeat: { type: 'string', default: '3' },
      server: { type: 'string', default: 'both' },
      profile: { type: 'boolean', default: false },
    },
  });
  const int = (name: string, raw: string, min: number): number => {
    const x = Number(raw);
    if (!Number.isInteger(x) || x < min)
      throw new Error(`--${name} must be an integer >= ${min}, got ${raw}`);
    return x;
  };
  const latencyMs = Number(values['latency-ms']);
  if (!Number.isFinite(latencyMs) || latencyMs < 0)
    throw new Error(`--latency-ms must be a number >= 0, got ${values['latency-ms']}`);
  const server = values.server;
  if (server !== 'both' && server !== 'in-process' && server !== 'child')
    throw new Error(`--server must be in-process, child or both, got ${server}`);
  return {
    decisions: int('decisions', values.decisions, 1),
    concurrency: int('concurrency', values.concurrency, 1),
    latencyMs,
    agents: int('agents', values.agents, 4),
    seed: int('seed', values.seed, 0),
    repeat: int('repeat', values.repeat, 1),
    servers: server === 'both' ? ['in-process', 'child'] : [server],
    profile: values.profile,
  };
}

/** One timed run. */
interface Run {
  /** runWorld (or rerunLog) from call to return, ms. */
  wallMs: number;
  /** CPU time of this process (user + system, all threads) over the same span, ms. */
  cpuMs: number;
  decisions: number;
  ticks: number;
  fallbacks: number;
  digest: string;
  events: number;
  /** Chat completions the local server answered, and TCP connections it accepted (live runs). */
  served?: number;
  connections?: number;
}

async function timed(
  count: () => { decisions: number; fallbacks: number },
  go: () => Promise<RunResult>,
  profilePath?: string,
): Promise<Run> {
  (globalThis as { gc?: () => void }).gc?.();
  const profile = profilePath ? InspectorProfile.start() : undefined;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = await go();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(cpu);
  if (profile && profilePath) profile.stop(profilePath);
  return {
    wallMs,
    cpuMs: (c.user + c.system) / 1000,
    ...count(),
    ticks: result.ticks,
    digest: result.digest,
    events: result.events,
  };
}

function runOptions(a: Args, ticks: number): RunOptions {
  return { params: { agents: a.agents }, seed: a.seed, ticks, level: 'minimal' };
}

/** A running local server: its URL, and how to stop it and learn how many completions it served. */
interface ServerHandle {
  url: string;
  stop(): Promise<{ served: number; connections: number }>;
}

async function inProcessServer(a: Args): Promise<ServerHandle> {
  const server = await startLocalLlmServer({ port: 0, latencyMs: a.latencyMs });
  return {
    url: server.url,
    stop: async () => {
      const { completions, connections } = server.stats();
      await server.close();
      return { served: completions, connections };
    },
  };
}

/** `grapevine serve-llm` in its own node process: the client's CPU figures are then its own. */
async function childServer(a: Args): Promise<ServerHandle> {
  const server = await startChildLlmServer(a.latencyMs);
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      const m = /served (\d+) completions \(\d+ requests, (\d+) connections\)/.exec(server.output());
      return { served: Number(m?.[1] ?? Number.NaN), connections: Number(m?.[2] ?? Number.NaN) };
    },
  };
}

/** Live: local server with fixed latency, the LLM opened as `grapevine run` opens it. */
async function live(
  a: Args,
  mode: ServerMode,
  ticks: number,
  logPath: string,
  profilePath?: string,
): Promise<Run> {
  const server = mode === 'child' ? await childServer(a) : await inProcessServer(a);
  let stopped = false;
  try {
    const inputs = new InputBuffer();
    // The CLI passes process.env; an empty one keeps GRAPEVINE_* / OPENAI_* settings out of the figures.
    const llm = await openLiveLlm(
      resolveRunLlm(
        { llmBaseUrl: server.url, llmConcurrency: String(a.concurrency), model: 'grapevine-local' },
        {},
      ),
      new RngStreams(a.seed),
      inputs,
    );
    const wall = { llmEndpoint: llm.endpoint };
    const run = await timed(
      () => ({ decisions: llm.counters.calls, fallbacks: llm.counters.fallbacks }),
      () =>
        runWorld(benchWorld, {
          ...runOptions(a, ticks),
          openLog: (header) => LogWriter.create(logPath, { ...header, wall }),
          llm: llm.port,
          llmInfo: llm.info,
          inputs,
          fallbacks: llm.counters,
          shouldStop: () => llm.shouldStop(),
        }),
      profilePath,
    ).finally(() => llm.close());
    if (llm.counters.failures > 0 || llm.counters.retries > 0)
      process.stderr.write(
        `warning: live run had ${llm.counters.failures} failed calls, ${llm.counters.retries} retries\n`,
      );
    stopped = true;
    return { ...run, ...(await server.stop()) };
  } finally {
    if (!stopped) await server.stop();
  }
}

/** Instant: the in-process port behind a RecordingPort, records to the log as in the live stack. */
async function instant(
  a: Args,
  world: WorldDefinition,
  ticks: number,
  logPath: string,
  profilePath?: string,
): Promise<Run> {
  const inputs = new InputBuffer();
  const counter = { calls: 0 };
  const fallbacks = { fallbacks: 0 };
  const port = new RecordingPort(new InstantPort(a.agents), recordInto(inputs, counter));
  return timed(
    () => ({ decisions: counter.calls, fallbacks: fallbacks.fallbacks }),
    () =>
      runWorld(world, {
        ...runOptions(a, ticks),
        openLog: (header) => LogWriter.create(logPath, header),
        llm: port,
        llmInfo: { model: 'grapevine-local' },
        inputs,
        fallbacks,
      }),
    profilePath,
  );
}

/** Replay: the recorded run rerun with the replay LLM (as `grapevine replay --verify`), line by line. */
async function replay(recorded: RecordedRun, world: WorldDefinition, profilePath?: string): Promise<Run> {
  const info = recorded.header.llm as { model: string };
  const inputs = new InputBuffer();
  const llm = openReplayLlm(recorded.llmRecords as unknown as LlmCallRecord[], info, inputs);
  return timed(
    () => ({ decisions: llm.counters.calls, fallbacks: llm.counters.fallbacks }),
    () =>
      rerunLog(recorded, world, {
        services: { llm: llm.port, llmInfo: info, inputs, fallbacks: llm.counters },
      }),
    profilePath,
  );
}

/** The run with the median wall time (the lower middle for an even count). */
function median(runs: Run[]): Run {
  return [...runs].sort((x, y) => x.wallMs - y.wallMs)[Math.floor((runs.length - 1) / 2)];
}

const f = (x: number, d = 0): string =>
  x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const perSecond = (r: Run): number => r.decisions / (r.wallMs / 1000);

/** A named series of repeated runs. */
interface Series {
  key: string;
  label: string;
  runs: Run[];
  note: string;
}

async function main(): Promise<void> {
  const a = parse();
  mkdirSync(OUT, { recursive: true });
  const ticks = Math.ceil(a.decisions / a.agents);
  const logOf = (name: string): string => join(OUT, `llm-decisions-${name}.ndjson`);
  const profileOf = (phase: string, r: number): string | undefined =>
    a.profile && r === a.repeat - 1 ? join(OUT, `llm-decisions-${phase}.cpuprofile`) : undefined;
  const repeat = async (fn: (r: number) => Promise<Run>): Promise<Run[]> => {
    const runs: Run[] = [];
    for (let r = 0; r < a.repeat; r++) runs.push(await fn(r));
    return runs;
  };

  const lives: Series[] = [];
  for (const mode of a.servers)
    lives.push({
      key: `live-${mode}`,
      label: `live, server ${mode === 'child' ? 'in a child process' : 'in this process'}`,
      runs: await repeat((r) => live(a, mode, ticks, logOf(`live-${mode}`), profileOf(`live-${mode}`, r))),
      note: '',
    });
  const primary = lives[0];
  const liveLog = logOf(primary.key);
  const instants: Series = {
    key: 'instant',
    label: 'instant port (engine only)',
    runs: await repeat((r) => instant(a, benchWorld, ticks, logOf('instant'), profileOf('instant', r))),
    note: 'RecordingPort + LogWriter, no network',
  };
  const instantsPre: Series = {
    key: 'instant-precomputed',
    label: 'instant port, schema precomputed',
    runs: await repeat(() => instant(a, benchWorldPrecomputed, ticks, logOf('instant-precomputed'))),
    note: 'what-if: params.json built once per agent',
  };
  const r0 = performance.now();
  const recorded = await readRecordedRun(liveLog);
  const readMs = performance.now() - r0;
  const replays: Series = {
    key: 'replay',
    label: 'replay (rerunLog, verified)',
    runs: await repeat((r) => replay(recorded, benchWorld, profileOf('replay', r))),
    note: `of ${relative(process.cwd(), liveLog)}; readRecordedRun ${f(readMs, 1)} ms more`,
  };
  const replaysPre: Series = {
    key: 'replay-precomputed',
    label: 'replay, schema precomputed',
    runs: await repeat(() => replay(recorded, benchWorldPrecomputed)),
    note: 'what-if: same log, same digest',
  };

  const L = median(primary.runs);
  const I = median(instants.runs);
  const R = median(replays.runs);
  const made = L.decisions;
  // The ideal: every call takes exactly the server latency, `concurrency` of them at a time.
  const idealMs = (made / a.concurrency) * a.latencyMs;
  const idealRequestedMs = (a.decisions / a.concurrency) * a.latencyMs;
  for (const s of lives)
    s.note = `ideal ${f(idealMs)} ms; wall / ideal ${f(median(s.runs).wallMs / idealMs, 2)}x`;
  const overheadMs = I.wallMs / I.decisions;
  const httpShareMs = (L.wallMs - idealMs) / made;
  const replayRate = perSecond(R);
  const all = [...lives, instants, instantsPre, replays, replaysPre];
  const digests = new Set(all.flatMap((s) => s.runs.map((r) => r.digest)));
  for (const s of all)
    for (const run of s.runs) {
      if (run.fallbacks > 0) process.stderr.write(`warning: ${s.key}: ${run.fallbacks} fallback decisions\n`);
      if (run.decisions !== made) throw new Error(`${s.key}: ${run.decisions} decisions, expected ${made}`);
    }
  for (const s of [...lives, replays, replaysPre])
    if (s.runs.some((r) => r.digest !== L.digest))
      throw new Error(`${s.key}: digest differs from the live log`);

  const ok = (b: boolean): string => (b ? 'yes' : '**no**');
  const header =
    `bench-llm-decisions: ${a.agents} agents (XState executor, simultaneous turns), ${ticks} ticks, ${made} decisions ` +
    `(asked ${a.decisions}); local server latency ${a.latencyMs} ms, concurrency ${a.concurrency}; ` +
    `median of ${a.repeat}; node ${process.version}, ${cpus().length}x ${cpus()[0]?.model ?? 'cpu'}`;
  const digits = (s: Series): number => (s.key.startsWith('live') ? 0 : 1);
  const row = (s: Series): string => {
    const m = median(s.runs);
    const d = digits(s);
    return `| ${s.label} | ${f(m.wallMs, d)} | ${f(m.cpuMs, d)} | ${f(perSecond(m))} | ${f(m.wallMs / m.decisions, 4)} | ${s.runs.map((r) => f(r.wallMs, d)).join(', ')} | ${s.note} |`;
  };
  const table = [
    '| run | wall ms | CPU ms | decisions/s | wall ms/decision | all runs, wall ms | notes |',
    '|---|--:|--:|--:|--:|--:|---|',
    ...all.map(row),
  ].join('\n');
  const child = lives.find((s) => s.key === 'live-child');
  const C = child ? median(child.runs) : undefined;
  const details = [
    `- ideal = decisions / concurrency x latency = ${made} / ${a.concurrency} x ${a.latencyMs} = ${f(idealMs)} ms (${f(idealRequestedMs)} ms for the ${a.decisions} asked; ${ticks} ticks x ${a.latencyMs} ms = ${f(ticks * a.latencyMs)} ms is also the floor of a tick barrier)`,
    `- HTTP-client share = (live wall - ideal) / decisions = ${f(httpShareMs, 3)} ms per decision (${primary.label.slice('live, '.length)})` +
      (C && child !== primary
        ? `, ${f((C.wallMs - idealMs) / made, 3)} ms with the server in a child process`
        : '') +
      `; the engine's own overhead (instant run) is ${f(overheadMs, 4)} ms of it`,
    `- CPU per decision in this process (all threads): live ${f(L.cpuMs / made, 3)} ms (client + engine${child === primary ? '' : ' + server'})` +
      (C && child !== primary
        ? `, live with a child server ${f(C.cpuMs / made, 3)} ms (client + engine)`
        : '') +
      `, instant ${f(I.cpuMs / made, 3)} ms (engine), replay ${f(R.cpuMs / made, 3)} ms`,
    `- the server answered ${L.served} completions over ${L.connections} connections; ${digests.size === 2 ? 'live runs and replays share one digest, instant runs another' : `${digests.size} distinct digests`} (live ${L.digest.slice(0, 16)}, ${L.events} events, ${f(statSync(liveLog).size)} bytes); every replay verified line by line`,
    ...(a.profile
      ? [
          `- profiles: ${relative(process.cwd(), join(OUT, 'llm-decisions-{live-*,instant,replay}.cpuprofile'))}`,
        ]
      : []),
  ].join('\n');
  const targets = [
    '| target | goal | measured | met |',
    '|---|--:|--:|:-:|',
    `| engine overhead per decision (instant wall / decisions) | < ${TARGETS.overheadMsPerDecision} ms | ${f(overheadMs, 4)} ms | ${ok(overheadMs < TARGETS.overheadMsPerDecision)} |`,
    `| replay decisions/s | >= ${f(TARGETS.replayDecisionsPerSecond)} | ${f(replayRate)} | ${ok(replayRate >= TARGETS.replayDecisionsPerSecond)} |`,
  ].join('\n');
  process.stdout.write(`${header}\n\n${table}\n\n${details}\n\n${targets}\n`);

  const file = join(OUT, 'llm-decisions.json');
  const summary = (s: Series) => {
    const m = median(s.runs);
    return { ...m, decisionsPerSecond: perSecond(m), msPerDecision: m.wallMs / m.decisions, runs: s.runs };
  };
  const json = {
    bench: 'llm-decisions',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model,
    cpus: cpus().length,
    params: { ...a, ticks, decisionsMade: made, profiled: a.profile },
    live: {
      ...summary(primary),
      server: primary.key.slice('live-'.length),
      idealMs,
      idealRequestedMs,
      ratioToIdeal: L.wallMs / idealMs,
      httpShareMsPerDecision: httpShareMs,
      logPath: relative(process.cwd(), liveLog),
    },
    ...(child
      ? {
          liveChildServer: {
            ...summary(child),
            ratioToIdeal: C!.wallMs / idealMs,
            httpShareMsPerDecision: (C!.wallMs - idealMs) / made,
          },
        }
      : {}),
    instant: { ...summary(instants), overheadMsPerDecision: overheadMs },
    instantPrecomputedSchema: summary(instantsPre),
    replay: { ...summary(replays), readMs },
    replayPrecomputedSchema: summary(replaysPre),
    targets: {
      overheadMsPerDecision: {
        target: TARGETS.overheadMsPerDecision,
        value: overheadMs,
        met: overheadMs < TARGETS.overheadMsPerDecision,
      },
      replayDecisionsPerSecond: {
        target: TARGETS.replayDecisionsPerSecond,
        value: replayRate,
        met: replayRate >= TARGETS.replayDecisionsPerSecond,
      },
    },
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`\nfigures: ${relative(process.cwd(), file)}\n`);
}

await main();
