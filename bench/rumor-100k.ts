/**
 * Benchmark for the engine core: the rumour world (Daley-Kendall on a Watts-Strogatz
 * network, k=10, beta=0.1) run to extinction with the replay log on, against a
 * hand-written typed-array implementation of the same model (bench/rumor-baseline.ts).
 *
 *   npx tsx --expose-gc bench/rumor-100k.ts [--n 100000] [--seed 1] [--gzip]
 *
 * Each implementation runs in its own child process (same node flags) so that its RSS
 * baseline, peak and the kernel's maxRSS belong to it alone. `--impl engine|baseline`
 * measures one; `--in-process` runs in this process. `--profile` writes a CPU profile of
 * each run phase (set-up excluded) to bench/out/rumor-<n>-<impl>.cpuprofile; read it with
 * `npx tsx bench/tools/cpuprofile-summary.ts <file>` (profiled times are inflated by sampling).
 * Prints a Markdown table and writes the figures to bench/out/rumor-100k.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Impl, type Measurement, measureBaseline, measureEngine } from './rumor-measure.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'out');

/** The issue's targets for the engine. */
export const TARGETS = { deliveriesPerSecond: 1_000_000, bytesPerAgent: 2048, ratio: 5 } as const;

interface Args {
  n: number;
  seed: number;
  gzip: boolean;
  impls: Impl[];
  child: boolean;
  inProcess: boolean;
  profile: boolean;
  repeat: number;
}

function parse(): Args {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '100000' },
      seed: { type: 'string', default: '1' },
      gzip: { type: 'boolean', default: false },
      impl: { type: 'string', default: 'both' },
      child: { type: 'boolean', default: false },
      'in-process': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      repeat: { type: 'string', default: '1' },
    },
  });
  const n = Number(values.n);
  const seed = Number(values.seed);
  if (!Number.isInteger(n) || n < 100) throw new Error(`--n must be an integer >= 100, got ${values.n}`);
  if (!Number.isSafeInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat must be >= 1, got ${values.repeat}`);
  const impl = values.impl;
  if (impl !== 'both' && impl !== 'engine' && impl !== 'baseline')
    throw new Error(`--impl must be engine, baseline or both, got ${impl}`);
  const impls: Impl[] = impl === 'both' ? ['baseline', 'engine'] : [impl];
  return {
    n,
    seed,
    gzip: values.gzip,
    impls,
    child: values.child,
    inProcess: values['in-process'],
    profile: values.profile,
    repeat,
  };
}

function logPath(a: Args): string {
  return join(OUT, `rumor-${a.n}-s${a.seed}.ndjson${a.gzip ? '.gz' : ''}`);
}

async function measure(impl: Impl, a: Args): Promise<Measurement> {
  const profilePath = a.profile ? join(OUT, `rumor-${a.n}-${impl}.cpuprofile`) : undefined;
  if (profilePath) mkdirSync(OUT, { recursive: true });
  const o = { n: a.n, seed: a.seed, logPath: logPath(a), profilePath };
  return impl === 'engine' ? measureEngine(o) : measureBaseline(o);
}

/** Runs one implementation in a fresh node process with this process's flags. */
function measureInChild(impl: Impl, a: Args): Measurement {
  const flags = process.execArgv.includes('--expose-gc')
    ? process.execArgv
    : [...process.execArgv, '--expose-gc'];
  const args = [
    fileURLToPath(import.meta.url),
    '--child',
    '--impl',
    impl,
    '--n',
    `${a.n}`,
    '--seed',
    `${a.seed}`,
  ];
  if (a.gzip) args.push('--gzip');
  if (a.profile) args.push('--profile');
  const child = spawnSync(process.execPath, [...flags, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  });
  if (child.status !== 0) throw new Error(`${impl} child exited with ${child.status ?? child.signal}`);
  const last = child.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as Measurement;
}

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
const int = (x: number): string => Math.round(x).toLocaleString('en-US');
const sec = (ms: number): string => (ms / 1000).toFixed(3);
const rate = (m: Measurement): number => m.deliveries / (m.runMs / 1000);

function row(m: Measurement, ratio: string): string {
  const peak = Math.max(m.rss.peak, m.rss.maxRss);
  return `| ${m.impl} | ${sec(m.setupMs)} | ${sec(m.runMs)} | ${sec(m.totalMs)} | ${m.ticks} | ${int(m.steps)} | ${int(m.deliveries)} | ${int(rate(m))} | ${mb(peak)} | ${int(m.bytesPerAgent)} | ${ratio} |`;
}

function table(ms: Measurement[]): string {
  const base = ms.find((m) => m.impl === 'baseline');
  const lines = [
    '| implementation | setup s | run s | wall s | ticks | steps | deliveries | deliveries/s (run) | peak RSS MB | bytes/agent | run time / baseline |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const m of ms) lines.push(row(m, base ? `${(m.runMs / base.runMs).toFixed(2)}x` : 'n/a'));
  return lines.join('\n');
}

function targets(engine: Measurement, base?: Measurement): { text: string; json: Record<string, unknown> } {
  const r = rate(engine);
  const ratio = base ? engine.runMs / base.runMs : Number.NaN;
  const ok = (b: boolean): string => (b ? 'yes' : '**no**');
  const json = {
    deliveriesPerSecond: {
      target: TARGETS.deliveriesPerSecond,
      value: r,
      met: r >= TARGETS.deliveriesPerSecond,
    },
    bytesPerAgent: {
      target: TARGETS.bytesPerAgent,
      value: engine.bytesPerAgent,
      met: engine.bytesPerAgent <= TARGETS.bytesPerAgent,
    },
    ratioToBaseline: { target: TARGETS.ratio, value: ratio, met: ratio <= TARGETS.ratio },
  };
  const text = [
    '| engine target | goal | measured | met |',
    '|---|--:|--:|:-:|',
    `| deliveries/s (run) | >= 1,000,000 | ${int(r)} | ${ok(json.deliveriesPerSecond.met)} |`,
    `| resident bytes/agent | <= 2,048 | ${int(engine.bytesPerAgent)} | ${ok(json.bytesPerAgent.met)} |`,
    `| run time / baseline | <= 5x | ${base ? `${ratio.toFixed(2)}x` : 'n/a'} | ${base ? ok(json.ratioToBaseline.met) : 'n/a'} |`,
  ].join('\n');
  return { text, json };
}

function details(ms: Measurement[]): string {
  const out: string[] = [];
  for (const m of ms) {
    const extra =
      m.impl === 'engine'
        ? `log ${int(m.logBytes ?? 0)} bytes (${relative(process.cwd(), m.logPath ?? '')}), digest ${m.digest?.slice(0, 16)}`
        : `network build ${sec(m.networkMs ?? 0)} s`;
    out.push(
      `- ${m.impl}: reason ${m.reason}; run CPU ${sec(m.runCpuMs)} s; aware fact ${int(m.aware.fact)}, rumor ${int(m.aware.rumor)}; ` +
        `RSS baseline ${mb(m.rss.baseline)} MB, sampled peak ${mb(m.rss.peak)} MB, maxRSS ${mb(m.rss.maxRss)} MB; ` +
        `model columns ${m.modelBytesPerAgent} B/agent; ${extra}`,
    );
  }
  return out.join('\n');
}

/** The run with the median run time (the lower middle for an even count). */
function median(ms: Measurement[]): Measurement {
  return [...ms].sort((x, y) => x.runMs - y.runMs)[Math.floor((ms.length - 1) / 2)];
}

function spreadLines(runs: Measurement[], impls: Impl[]): string {
  const lines = impls.map((impl) => {
    const mine = runs.filter((m) => m.impl === impl);
    const times = mine.map((m) => sec(m.runMs)).join(', ');
    const cpu = mine.map((m) => sec(m.runCpuMs)).join(', ');
    return `- ${impl} over ${mine.length} runs: run s ${times}; run CPU s ${cpu} (table: median run)`;
  });
  return lines.join('\n');
}

async function main(): Promise<void> {
  const a = parse();
  if (a.child) {
    const m = await measure(a.impls[0], a);
    process.stdout.write(`${JSON.stringify(m)}\n`);
    return;
  }
  const runs: Measurement[] = [];
  for (let r = 0; r < a.repeat; r++)
    for (const impl of a.impls) runs.push(a.inProcess ? await measure(impl, a) : measureInChild(impl, a));
  const ms = a.impls.map((impl) => median(runs.filter((m) => m.impl === impl)));
  const engine = ms.find((m) => m.impl === 'engine');
  const base = ms.find((m) => m.impl === 'baseline');
  const t = engine ? targets(engine, base) : undefined;
  const header = `rumor world, Daley-Kendall on Watts-Strogatz (k=10, beta=0.1), n=${int(a.n)}, seed ${a.seed}, log ${a.gzip ? 'gzip' : 'plain'}; node ${process.version}, ${cpus()[0]?.model ?? 'cpu'}`;
  const spread = a.repeat > 1 ? `\n${spreadLines(runs, a.impls)}\n` : '';
  process.stdout.write(`${header}\n\n${table(ms)}\n${spread}\n${details(ms)}\n${t ? `\n${t.text}\n` : ''}`);
  for (const m of ms)
    if (m.reason !== 'extinct') process.stderr.write(`warning: ${m.impl} stopped: ${m.reason}\n`);
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `rumor-${a.n === 100_000 ? '100k' : a.n}.json`);
  const json = {
    bench: 'rumor-100k',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model,
    params: { n: a.n, seed: a.seed, gzip: a.gzip, inProcess: a.inProcess, profiled: a.profile },
    results: ms,
    runs: a.repeat > 1 ? runs : undefined,
    targets: t?.json,
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`\nfigures: ${relative(process.cwd(), file)}\n`);
}

await main();
