/**
 * LLM world at population scale: town-square with N LLM agents for T ticks against the
 * shipped local server (`grapevine serve-llm --latency-ms 0`, a child process), then
 * `replay --verify` of its log. See bench/README.md ("llm-world").
 *
 * The bench process only orchestrates: the live run and the replay each run in their own
 * child process (this file with `--phase run|replay`), so that their CPU and RSS figures
 * are their own and the server's CPU is never counted as the engine's.
 */

import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openLiveLlm, resolveRunLlm } from '../src/cli/llm-session.ts';
import { replayServices } from '../src/cli/replay-services.ts';
import { RngStreams, runWorld } from '../src/index.ts';
import { InputBuffer } from '../src/public/llm.ts';
import { LogWriter, readRecordedRun, rerunLog } from '../src/replay/index.ts';
import { world } from '../worlds/town-square/index.ts';
import { type ChildLlmServer, startChildLlmServer } from './tools/child-llm-server.ts';
import { InspectorProfile } from './tools/inspector-profile.ts';
import { fullGc } from './tools/rss-sampler.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'out');
const BIN = join(HERE, '..', 'bin', 'grapevine.mjs');

interface Args {
  agents: number;
  ticks: number;
  seed: number;
  concurrency: number;
  profile: boolean;
  window: number;
  phase?: 'run' | 'replay';
  url?: string;
  log: string;
  result?: string;
}

function parse(): Args {
  const { values } = parseArgs({
    options: {
      agents: { type: 'string', default: '50' },
      ticks: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '64' },
      window: { type: 'string', default: '10' },
      profile: { type: 'boolean', default: false },
      phase: { type: 'string' },
      url: { type: 'string' },
      log: { type: 'string' },
      result: { type: 'string' },
    },
  });
  const int = (name: string, raw: string, min: number): number => {
    const x = Number(raw);
    if (!Number.isInteger(x) || x < min)
      throw new Error(`--${name} must be an integer >= ${min}, got ${raw}`);
    return x;
  };
  const agents = int('agents', values.agents, 5);
  const ticks = int('ticks', values.ticks, 1);
  const seed = int('seed', values.seed, 0);
  return {
    agents,
    ticks,
    seed,
    concurrency: int('concurrency', values.concurrency, 1),
    window: int('window', values.window, 1),
    profile: values.profile,
    phase: values.phase as Args['phase'],
    url: values.url,
    log: values.log ?? join(OUT, `llm-world-${agents}x${ticks}-s${seed}.ndjson`),
    result: values.result,
  };
}

/** Per-tick cumulative figures of the live run. */
interface TickSample {
  tick: number;
  cpuMs: number;
  calls: number;
}

/** What a phase child reports. */
interface PhaseResult {
  wallMs: number;
  cpuMs: number;
  calls: number;
  digest: string;
  ticks: number;
  /** RSS after GC before building anything, and the kernel's high-water mark, bytes. */
  baselineRss: number;
  maxRss: number;
  samples?: TickSample[];
  readMs?: number;
  failures?: number;
  /** Failed attempts that were retried (timeouts under load...): they no longer change the digest. */
  retries?: number;
}

const cpuNow = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

async function phaseRun(a: Args): Promise<PhaseResult> {
  fullGc();
  const baselineRss = process.memoryUsage().rss;
  const inputs = new InputBuffer();
  const llm = await openLiveLlm(
    resolveRunLlm({ llmBaseUrl: a.url, llmConcurrency: String(a.concurrency), model: 'grapevine-local' }, {}),
    new RngStreams(a.seed),
    inputs,
  );
  rmSync(a.log, { force: true });
  rmSync(`${a.result}.ticks.ndjson`, { force: true });
  const samples: TickSample[] = [];
  const profile = a.profile ? InspectorProfile.start(1000) : undefined;
  const cpu0 = cpuNow();
  const t0 = performance.now();
  const result = await runWorld(world, {
    params: { agents: a.agents },
    seed: a.seed,
    ticks: a.ticks,
    openLog: (header) => LogWriter.create(a.log, { ...header, wall: { llmEndpoint: llm.endpoint } }),
    onTick: (tick) => {
      const sample = { tick, cpuMs: cpuNow() - cpu0, calls: llm.counters.calls };
      samples.push(sample);
      // Progress, so that a run stopped early still tells its per-tick CPU.
      appendFileSync(`${a.result}.ticks.ndjson`, `${JSON.stringify(sample)}\n`);
    },
    llm: llm.port,
    llmInfo: llm.info,
    inputs,
    fallbacks: llm.counters,
    shouldStop: () => llm.shouldStop(),
  }).finally(() => llm.close());
  const wallMs = performance.now() - t0;
  const cpuMs = cpuNow() - cpu0;
  profile?.stop(join(OUT, `llm-world-${a.agents}x${a.ticks}-run.cpuprofile`));
  return {
    wallMs,
    cpuMs,
    calls: llm.counters.calls,
    failures: llm.counters.failures,
    retries: llm.counters.retries,
    digest: result.digest,
    ticks: result.ticks,
    baselineRss,
    maxRss: process.resourceUsage().maxRSS * 1024,
    samples,
  };
}

async function phaseReplay(a: Args): Promise<PhaseResult> {
  fullGc();
  const baselineRss = process.memoryUsage().rss;
  const r0 = performance.now();
  const recorded = await readRecordedRun(a.log);
  const readMs = performance.now() - r0;
  const services = replayServices(recorded)!;
  const profile = a.profile ? InspectorProfile.start(1000) : undefined;
  const cpu0 = cpuNow();
  const t0 = performance.now();
  const result = await rerunLog(recorded, world, { services });
  const wallMs = performance.now() - t0;
  const cpuMs = cpuNow() - cpu0;
  profile?.stop(join(OUT, `llm-world-${a.agents}x${a.ticks}-replay.cpuprofile`));
  return {
    wallMs,
    cpuMs,
    readMs,
    calls: recorded.llmRecords.length,
    digest: result.digest,
    ticks: result.ticks,
    baselineRss,
    maxRss: process.resourceUsage().maxRSS * 1024,
  };
}

/** CPU seconds (user + system) of a live process, from /proc (Linux). */
function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / 100) * 1000; // utime, stime at 100 Hz
}

/** The local server with no latency, in its own process (its CPU is measured apart). */
const startServer = (): Promise<ChildLlmServer> => startChildLlmServer(0);

/** Runs this file as a child for one phase; returns its JSON result. */
async function phase(a: Args, name: 'run' | 'replay', url = ''): Promise<PhaseResult> {
  const result = join(OUT, `llm-world-${a.agents}x${a.ticks}-${name}.json`);
  const argv = [
    '--expose-gc',
    '--import',
    'tsx',
    fileURLToPath(import.meta.url),
    '--phase',
    name,
    '--agents',
    String(a.agents),
    '--ticks',
    String(a.ticks),
    '--seed',
    String(a.seed),
    '--concurrency',
    String(a.concurrency),
    '--log',
    a.log,
    '--result',
    result,
    ...(url ? ['--url', url] : []),
    ...(a.profile ? ['--profile'] : []),
  ];
  const child = spawn(process.execPath, argv, { stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${name} phase exited with ${code}`);
  return JSON.parse(readFileSync(result, 'utf8')) as PhaseResult;
}

/** Engine CPU per decision over the `window` ticks ending at `tick` (ms). */
function perDecisionAt(samples: readonly TickSample[], tick: number, window: number): number {
  const end = samples.find((s) => s.tick === tick) ?? samples[samples.length - 1];
  const start = samples.find((s) => s.tick === end.tick - window) ?? { cpuMs: 0, calls: 0 };
  return (end.cpuMs - start.cpuMs) / Math.max(1, end.calls - start.calls);
}

const f = (x: number, d = 0): string =>
  x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

async function main(a: Args): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const server = await startServer();
  let run: PhaseResult;
  let serverCpuMs: number;
  try {
    const before = procCpuMs(server.pid);
    run = await phase(a, 'run', server.url);
    serverCpuMs = procCpuMs(server.pid) - before;
  } finally {
    await server.stop();
  }
  const replay = await phase(a, 'replay');
  const cliStart = performance.now();
  const cli = spawn(process.execPath, [BIN, 'replay', a.log, '--verify', '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const cliCode = await new Promise<number | null>((resolve) => cli.once('exit', resolve));
  const cliMs = performance.now() - cliStart;
  const samples = run.samples ?? [];
  const at20 = perDecisionAt(samples, Math.min(20, a.ticks), a.window);
  const atEnd = perDecisionAt(samples, run.ticks, a.window);
  const figures = {
    agents: a.agents,
    ticks: run.ticks,
    seed: a.seed,
    decisions: run.calls,
    failures: run.failures,
    retries: run.retries,
    digest: run.digest,
    replayDigest: replay.digest,
    liveWallMs: run.wallMs,
    engineCpuMsPerDecision: run.cpuMs / run.calls,
    [`engineCpuMsPerDecisionTick${Math.min(20, a.ticks)}`]: at20,
    [`engineCpuMsPerDecisionTick${run.ticks}`]: atEnd,
    serverCpuMsPerDecision: serverCpuMs / run.calls,
    replayDecisionsPerSecond: replay.calls / (replay.wallMs / 1000),
    replayReadMs: replay.readMs,
    cliReplayMs: cliMs,
    cliReplayExit: cliCode,
    liveRssPerAgentBytes: (run.maxRss - run.baselineRss) / a.agents,
    replayRssPerAgentBytes: (replay.maxRss - replay.baselineRss) / a.agents,
  };
  writeFileSync(join(OUT, `llm-world-${a.agents}x${a.ticks}.json`), `${JSON.stringify(figures, null, 2)}\n`);
  const w = a.window;
  process.stdout.write(
    [
      `town-square ${a.agents} LLM agents x ${run.ticks} ticks, seed ${a.seed}: ${run.calls} decisions, ${run.failures} failed, ${run.retries ?? 0} retried attempts, digest ${run.digest}`,
      `live: ${f(run.wallMs / 1000, 1)} s wall; engine CPU ${f(run.cpuMs / run.calls, 3)} ms/decision overall, ${f(at20, 3)} at tick ${Math.min(20, a.ticks)} and ${f(atEnd, 3)} at tick ${run.ticks} (last ${w} ticks); server ${f(serverCpuMs / run.calls, 3)} ms/decision`,
      `replay (rerunLog, verified): ${f(replay.wallMs / 1000, 2)} s, ${f(figures.replayDecisionsPerSecond)} decisions/s (+${f((replay.readMs ?? 0) / 1000, 2)} s reading the log); digest ${replay.digest === run.digest ? 'matches' : `DIFFERS ${replay.digest}`}`,
      `grapevine replay --verify (CLI, start-up included): ${f(cliMs / 1000, 2)} s, exit ${cliCode}, ${f(run.calls / (cliMs / 1000))} decisions/s`,
      `peak RSS per LLM agent: live ${f(figures.liveRssPerAgentBytes / 1024)} KB, replay ${f(figures.replayRssPerAgentBytes / 1024)} KB`,
      '',
    ].join('\n'),
  );
}

const args = parse();
if (args.phase) {
  const r = args.phase === 'run' ? await phaseRun(args) : await phaseReplay(args);
  writeFileSync(args.result!, JSON.stringify(r));
} else {
  await main(args);
}
