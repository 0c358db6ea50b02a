/**
 * Benchmark for forks: the rumour world at 100,000 agents, 500 ticks, a snapshot every
 * 50 ticks. Measures the parent run, a fork at tick 450 (a delta child by default, and one
 * with --standalone; restore the snapshot at 450,
 * rerun the recorded tail, run the last 50 ticks) against a rerun of the same run from
 * tick 0 to the same end, and the snapshot size per agent.
 *
 *   npx tsx bench/fork-100k.ts [--n 100000] [--ticks 500] [--every 50] [--at 450]
 *     [--series 50,250] [--seed 1] [--repeat 3] [--pairs 5] [--no-cli] [--set key=value ...]
 *
 * The default rumour run (Daley-Kendall on Watts-Strogatz k=10) dies out in about 80
 * ticks, so this uses a setting that lasts: independent cascade (p=0.5) on an almost
 * regular Watts-Strogatz ring (k=10, beta=0.0002), where the fact and the rumour advance
 * as slow fronts along the ring and through its few shortcuts; it is still spreading at
 * tick 500 (stop reason max-ticks).
 *
 * Each repeat forks twice: cold (the parent's verification index `<parent>.verified` removed
 * first, so the fork scans the whole parent once over its raw bytes and writes the index)
 * and warm (the index present: the fork reads the parent from its restore snapshot on).
 * Figures are CPU seconds of this process (user + system) as well as wall times, which are
 * only upper bounds on a loaded machine.
 *
 * Two measurements, each fair on its own: (1) in this process through the library
 * (`runWorld`, `readRecordedRun`, `continueRun`, as `grapevine run` and `grapevine fork` call
 * them), the fork and the rerun alternating `--repeat` times, both measured the same way
 * (no forced GC before either: a `gc()` before each timed section used to throw away the
 * optimised code, which a 50-tick fork pays for and a 500-tick rerun amortises); and (2)
 * the headline, whole processes: `grapevine fork` against `grapevine run` of the same run
 * through the built CLI (`npm run build` first), alternating A B A B `--pairs` times, each
 * timed by `/usr/bin/time` (the kernel's user + system seconds of the finished child:
 * start-up, module loading, network building and cold JIT included on both sides); the
 * ratio is taken pair by pair and its median reported. `--no-cli` skips (2). Every fork and
 * rerun must reproduce the parent's digest. Logs go to bench/out/fork-100k-*.ndjson,
 * figures to bench/out/fork-100k.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import {
  continueRun,
  copyPrefix,
  dropParentIndex,
  endOfTick,
  LogWriter,
  readLog,
  readRecordedRun,
  readSnapshotAt,
} from '../src/replay/index.ts';
import { parseAssignments, type RunResult, runWorld } from '../src/world/index.ts';
import { world } from '../worlds/rumor/index.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'out');
const BIN = join(HERE, '..', 'bin', 'grapevine.mjs');
const def = world;

interface Args {
  n: number;
  ticks: number;
  every: number;
  at: number;
  series: number[];
  seed: number;
  repeat: number;
  /** Whole-process pairs (CLI fork, CLI run) timed by /usr/bin/time. */
  pairs: number;
  cli: boolean;
  /** Parameter overrides (`--set key=value`, repeatable). */
  set: Record<string, unknown>;
}

function parse(): Args {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '100000' },
      ticks: { type: 'string', default: '500' },
      every: { type: 'string', default: '50' },
      at: { type: 'string', default: '450' },
      series: { type: 'string', default: '50,250' },
      seed: { type: 'string', default: '1' },
      repeat: { type: 'string', default: '3' },
      pairs: { type: 'string', default: '5' },
      'no-cli': { type: 'boolean', default: false },
      set: { type: 'string', multiple: true, default: [] },
    },
  });
  const int = (name: string, v: string, min: number): number => {
    const x = Number(v);
    if (!Number.isSafeInteger(x) || x < min)
      throw new Error(`--${name} must be an integer >= ${min}, got ${v}`);
    return x;
  };
  const a: Args = {
    n: int('n', values.n, 100),
    ticks: int('ticks', values.ticks, 1),
    every: int('every', values.every, 1),
    at: int('at', values.at, 0),
    series: values.series
      .split(',')
      .filter(Boolean)
      .map((s) => int('series', s, 0)),
    seed: int('seed', values.seed, 0),
    repeat: int('repeat', values.repeat, 1),
    pairs: int('pairs', values.pairs, 1),
    cli: !values['no-cli'],
    set: parseAssignments(values.set),
  };
  if (a.at > a.ticks) throw new Error(`--at ${a.at} is beyond --ticks ${a.ticks}`);
  return a;
}

/** The long-lasting rumour setting (see the file comment). */
function params(a: Args): Record<string, unknown> {
  return {
    n: a.n,
    model: 'independent-cascade',
    p: 0.5,
    network: 'watts-strogatz',
    k: 10,
    beta: 0.0002,
    ...a.set,
  };
}

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, ms, cpuMs: (c.user + c.system) / 1000 };
}

/** Runs the world from tick 0, writing its log (what `grapevine run` does). */
function runFromZero(a: Args, path: string, wall: Record<string, string>): Promise<RunResult> {
  rmSync(path, { force: true });
  return runWorld(def, {
    params: params(a),
    seed: a.seed,
    ticks: a.ticks,
    snapshotEvery: a.every,
    openLog: (header) => LogWriter.create(path, { ...header, wall }, { index: true }),
  });
}

/**
 * Forks `parent` after tick `at` without intervention (what `grapevine fork` does
 * in-process): a delta child by default, a self-contained copy with `standalone`.
 */
async function fork(
  parent: string,
  at: number,
  out: string,
  layout: 'delta' | 'standalone' = 'delta',
): Promise<{ result: RunResult; readMs: number }> {
  rmSync(out, { force: true });
  const t0 = performance.now();
  const recorded = await readRecordedRun(parent, { restoreTicks: [at] });
  const readMs = performance.now() - t0;
  const result = await continueRun({
    def,
    recorded,
    path: parent,
    atTick: at,
    out,
    layout,
    ownsRecorded: true,
    wall: { fork: { parent, parentDigest: recorded.digest, atTick: at, interventions: 0 } },
  });
  return { result, readMs };
}

interface SnapshotFigure {
  tick: number;
  seq: number;
  bytes: number;
  bytesPerAgent: number;
  gzipBytes: number;
  /** Bytes of each part of the state, as JSON. */
  parts: Record<string, number>;
}

async function snapshotFigures(path: string, n: number): Promise<SnapshotFigure[]> {
  const out: SnapshotFigure[] = [];
  for await (const line of readLog(path, { verify: false })) {
    if (line.type !== 'snapshot') continue;
    const bytes = Buffer.byteLength(line.raw) + 1;
    const state = line.event.state as Record<string, unknown>;
    const parts = Object.fromEntries(
      Object.entries(state).map(([k, v]) => [k, Buffer.byteLength(JSON.stringify(v))]),
    );
    out.push({
      tick: line.t,
      seq: line.seq,
      bytes,
      bytesPerAgent: bytes / n,
      gzipBytes: gzipSync(line.raw).length,
      parts,
    });
  }
  return out;
}

const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
const sec = (ms: number): string => (ms / 1000).toFixed(3);
const int = (x: number): string => Math.round(x).toLocaleString('en-US');
const mb = (b: number): string => (b / 2 ** 20).toFixed(2);

function expectDigest(what: string, got: string, want: string): void {
  if (got !== want) throw new Error(`${what} digest ${got} differs from the parent's ${want}`);
}

interface ProcessTime {
  ms: number;
  cpuMs: number;
  maxRssKb: number;
}

/**
 * Runs a command as a whole process under `/usr/bin/time` and returns the kernel's account of
 * it (wall, user + system of the process and its waited-for children, peak RSS) and its stdout.
 */
function timeProcess(args: string[]): { time: ProcessTime; stdout: string } {
  const file = join(OUT, `fork-100k-time-${process.pid}.txt`);
  const c = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', file, process.execPath, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  if (c.error) throw new Error(`cannot run /usr/bin/time (install GNU time): ${c.error.message}`);
  if (c.status !== 0) throw new Error(`${args.slice(0, 3).join(' ')} exited ${c.status}: ${c.stderr}`);
  const [e, u, s, m] = readFileSync(file, 'utf8').trim().split(/\s+/).slice(-4).map(Number);
  rmSync(file, { force: true });
  return { time: { ms: e * 1000, cpuMs: (u + s) * 1000, maxRssKb: m }, stdout: c.stdout };
}

/** `grapevine fork` of the parent and `grapevine run` of the same run, alternating, each a whole process. */
function wholeProcessPairs(
  a: Args,
  parent: string,
  child: string,
  rerun: string,
  digest: string,
): { fork: ProcessTime; run: ProcessTime }[] {
  const sets = Object.entries(params(a)).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const forkArgs = [BIN, 'fork', parent, '--at', String(a.at), '--out', child, '--force', '--json'];
  const runArgs = [
    BIN,
    'run',
    'rumor',
    ...sets,
    '--seed',
    String(a.seed),
    '--ticks',
    String(a.ticks),
    '--snapshot-every',
    String(a.every),
    '--out',
    rerun,
    '--force',
    '--json',
  ];
  const out: { fork: ProcessTime; run: ProcessTime }[] = [];
  // one unmeasured pair first: the page cache and the parent's verification index settle
  for (let r = -1; r < a.pairs; r++) {
    const f = timeProcess(forkArgs);
    expectDigest('CLI fork', JSON.parse(f.stdout).digest, digest);
    const z = timeProcess(runArgs);
    expectDigest('CLI run', JSON.parse(z.stdout).digest, digest);
    if (r < 0) continue;
    out.push({ fork: f.time, run: z.time });
    process.stderr.write(
      `pair ${r + 1}: grapevine fork cpu ${sec(f.time.cpuMs)} s, grapevine run cpu ${sec(z.time.cpuMs)} s, ratio ${(f.time.cpuMs / z.time.cpuMs).toFixed(3)}\n`,
    );
  }
  return out;
}

async function main(): Promise<void> {
  const a = parse();
  mkdirSync(OUT, { recursive: true });
  const parent = join(OUT, `fork-${a.n / 1000}k-parent.ndjson`);
  const child = join(OUT, `fork-${a.n / 1000}k-child.ndjson`);
  const rerun = join(OUT, `fork-${a.n / 1000}k-rerun.ndjson`);
  const load0 = loadavg();

  // 1. the parent run
  const p = await timed(() => runFromZero(a, parent, { startedAt: new Date().toISOString() }));
  const parentRun = p.value;
  process.stderr.write(
    `parent: ${parentRun.ticks} ticks (${parentRun.reason}) in ${sec(p.ms)} s, ${int(parentRun.steps)} steps, ${int(parentRun.deliveries)} deliveries\n`,
  );
  if (parentRun.ticks < a.at)
    throw new Error(`the parent ended at tick ${parentRun.ticks}, before the fork tick ${a.at}`);
  const parentBytes = statSync(parent).size;

  // 2. snapshots
  const snaps = await snapshotFigures(parent, a.n);
  const periodic = snaps.slice(0, -1);
  const atSnap = periodic.filter((s) => s.tick <= a.at).at(-1);

  // 3. fork at `at` vs rerun from 0, alternating
  const forks: { ms: number; cpuMs: number; readMs: number }[] = [];
  const colds: { ms: number; cpuMs: number; readMs: number }[] = [];
  const standalones: { ms: number; cpuMs: number; readMs: number }[] = [];
  const reruns: { ms: number; cpuMs: number }[] = [];
  for (let r = 0; r < a.repeat; r++) {
    // cold: no verification cache beside the parent (the fork scans it whole and writes one)
    dropParentIndex(parent);
    const c = await timed(() => fork(parent, a.at, child));
    expectDigest('cold fork', c.value.result.digest, parentRun.digest);
    colds.push({ ms: c.ms, cpuMs: c.cpuMs, readMs: c.value.readMs });
    const f = await timed(() => fork(parent, a.at, child));
    expectDigest('fork', f.value.result.digest, parentRun.digest);
    forks.push({ ms: f.ms, cpuMs: f.cpuMs, readMs: f.value.readMs });
    const s = await timed(() => fork(parent, a.at, `${child}.standalone`, 'standalone'));
    expectDigest('standalone fork', s.value.result.digest, parentRun.digest);
    standalones.push({ ms: s.ms, cpuMs: s.cpuMs, readMs: s.value.readMs });
    const z = await timed(() => runFromZero(a, rerun, { startedAt: new Date().toISOString() }));
    expectDigest('rerun', z.value.digest, parentRun.digest);
    reruns.push({ ms: z.ms, cpuMs: z.cpuMs });
    process.stderr.write(
      `repeat ${r + 1}: cold delta fork ${sec(c.ms)} s (cpu ${sec(c.cpuMs)}), warm ${sec(f.ms)} s (cpu ${sec(f.cpuMs)}), rerun cpu ${sec(z.cpuMs)} s, delta fork ${sec(f.ms)} s, standalone fork ${sec(s.ms)} s, rerun ${sec(z.ms)} s\n`,
    );
  }
  const forkMs = median(forks.map((f) => f.ms));
  const standaloneMs = median(standalones.map((f) => f.ms));
  const childBytes = statSync(child).size;
  const standaloneBytes = statSync(`${child}.standalone`).size;
  const rerunMs = median(reruns.map((z) => z.ms));
  const cpu = {
    warmFork: median(forks.map((f) => f.cpuMs)),
    coldFork: median(colds.map((f) => f.cpuMs)),
    standalone: median(standalones.map((f) => f.cpuMs)),
    rerun: median(reruns.map((z) => z.cpuMs)),
  };

  // 4. where a fork's time goes: the parts that scan the parent log, timed apart
  const recorded = await readRecordedRun(parent);
  const until = endOfTick(recorded, a.at);
  const parts = {
    readAndVerifyParentMs: median(forks.map((f) => f.readMs)),
    readSnapshotMs: (await timed(() => readSnapshotAt(parent, atSnap?.seq ?? 0))).ms,
    copyPrefixMs: (await timed(() => copyPrefix(parent, `${child}.prefix`, until))).ms,
  };
  rmSync(`${child}.prefix`, { force: true });

  // 5. forks at other ticks (one each): the cost follows the parent log's size and the tail,
  // not the fork tick
  const series: { at: number; ms: number }[] = [];
  for (const at of a.series.filter((t) => t <= parentRun.ticks)) {
    const f = await timed(() => fork(parent, at, child));
    expectDigest(`fork at ${at}`, f.value.result.digest, parentRun.digest);
    series.push({ at, ms: f.ms });
  }

  // 6. whole processes: `grapevine fork` against `grapevine run`, A B A B, each timed by the kernel
  const pairs = a.cli ? wholeProcessPairs(a, parent, child, rerun, parentRun.digest) : [];
  const cliCpu = pairs.length
    ? {
        fork: median(pairs.map((q) => q.fork.cpuMs)),
        run: median(pairs.map((q) => q.run.cpuMs)),
        ratio: median(pairs.map((q) => q.fork.cpuMs / q.run.cpuMs)),
        ratios: pairs.map((q) => q.fork.cpuMs / q.run.cpuMs),
        wallRatio: median(pairs.map((q) => q.fork.ms / q.run.ms)),
      }
    : null;
  const cliMs = pairs.length ? median(pairs.map((q) => q.fork.ms)) : null;

  const ratio = rerunMs / forkMs;
  const scansMs = parts.readAndVerifyParentMs + parts.readSnapshotMs + parts.copyPrefixMs;
  const table = [
    `| measure (rumour world, n=${int(a.n)}, ${a.ticks} ticks, snapshot every ${a.every}) | value |`,
    '|---|--:|',
    `| parent run, tick 0 to ${parentRun.ticks} (${parentRun.reason}), log written | ${sec(p.ms)} s |`,
    `| fork at ${a.at} (restore snapshot ${atSnap?.tick ?? 'none'}, tail ${a.at - (atSnap?.tick ?? 0)} ticks, then ${parentRun.ticks - a.at} live), in-process, median of ${a.repeat} | ${sec(forkMs)} s |`,
    `| rerun from tick 0 to ${parentRun.ticks}, log written, median of ${a.repeat} | ${sec(rerunMs)} s |`,
    `| **delta fork / rerun, CPU seconds** (parent's verification cache present; goal <= 0.15) | **${sec(cpu.warmFork)} / ${sec(cpu.rerun)} = ${(cpu.warmFork / cpu.rerun).toFixed(3)}** |`,
    `| cold delta fork / rerun, CPU seconds (no cache: a raw-byte scan of the whole parent, which writes it) | ${sec(cpu.coldFork)} / ${sec(cpu.rerun)} = ${(cpu.coldFork / cpu.rerun).toFixed(3)} |`,
    `| standalone fork / rerun, CPU seconds | ${sec(cpu.standalone)} / ${sec(cpu.rerun)} = ${(cpu.standalone / cpu.rerun).toFixed(3)} |`,
    `| delta fork / rerun, wall (an upper bound on a loaded machine) | ${(forkMs / rerunMs).toFixed(3)} |`,
    `| fork at ${a.at} with --standalone (prefix copied), median of ${a.repeat}; / rerun | ${sec(standaloneMs)} s; ${(standaloneMs / rerunMs).toFixed(3)} |`,
    `| child file: delta / standalone | ${mb(childBytes)} / ${mb(standaloneBytes)} MiB |`,
    `| rerun / fork | ${ratio.toFixed(2)}x |`,
    `| delta fork: reading the parent from its restore point (readRecordedRun, cache present), median | ${sec(parts.readAndVerifyParentMs)} s |`,
    `| delta fork: the rest (restore, recorded tail, live ticks) | ${sec(Math.max(0, forkMs - parts.readAndVerifyParentMs))} s |`,
    ...(cliCpu === null
      ? []
      : [
          `| **whole processes: \`grapevine fork --at ${a.at}\` / \`grapevine run\`, CPU seconds** (start-up included; median of ${pairs.length} pairs, ratio pair by pair) | **${sec(cliCpu.fork)} / ${sec(cliCpu.run)}; ${cliCpu.ratio.toFixed(3)}** (pairs ${cliCpu.ratios.map((r) => r.toFixed(3)).join(', ')}) |`,
          `| whole processes, wall ratio (an upper bound on a loaded machine) | ${cliCpu.wallRatio.toFixed(3)} |`,
        ]),
    `| snapshot at tick ${atSnap?.tick}: bytes per agent (line / n) | ${atSnap ? atSnap.bytesPerAgent.toFixed(1) : 'n/a'} |`,
    `| snapshot bytes per agent, min / max over the ${periodic.length} periodic snapshots | ${Math.min(...periodic.map((s) => s.bytesPerAgent)).toFixed(1)} / ${Math.max(...periodic.map((s) => s.bytesPerAgent)).toFixed(1)} |`,
    `| snapshot at tick ${atSnap?.tick} gzipped, bytes per agent | ${atSnap ? (atSnap.gzipBytes / a.n).toFixed(1) : 'n/a'} |`,
    `| parent log size | ${mb(parentBytes)} MiB |`,
  ].join('\n');
  const breakdown = [
    `fork at ${a.at}, parts timed apart (a --standalone fork does all three; a delta fork only the first):`,
    `- read the parent from its restore point (readRecordedRun, index present): ${sec(parts.readAndVerifyParentMs)} s`,
    `- read the snapshot line at tick ${atSnap?.tick} (readSnapshotAt): ${sec(parts.readSnapshotMs)} s`,
    `- copy the prefix to the child (copyPrefix): ${sec(parts.copyPrefixMs)} s`,
    `forks at other ticks: ${series.map((s) => `at ${s.at} ${sec(s.ms)} s`).join(', ') || 'none'}`,
    `snapshot at ${atSnap?.tick}, bytes by part: ${Object.entries(atSnap?.parts ?? {})
      .map(([k, v]) => `${k} ${int(v)}`)
      .join(', ')}`,
    `runs: fork ${forks.map((f) => sec(f.ms)).join(', ')} s; rerun ${reruns.map((z) => sec(z.ms)).join(', ')} s`,
  ].join('\n');
  process.stdout.write(`${table}\n\n${breakdown}\n`);
  const json = {
    n: a.n,
    ticks: a.ticks,
    snapshotEvery: a.every,
    at: a.at,
    seed: a.seed,
    params: params(a),
    machine: {
      cpus: availableParallelism(),
      model: cpus()[0]?.model,
      node: process.version,
      loadavgAtStart: load0,
    },
    parent: {
      ms: p.ms,
      cpuMs: p.cpuMs,
      ticks: parentRun.ticks,
      reason: parentRun.reason,
      steps: parentRun.steps,
      deliveries: parentRun.deliveries,
      digest: parentRun.digest,
      logBytes: parentBytes,
      log: relative(process.cwd(), parent),
    },
    cpu,
    wholeProcess: { pairs, cpu: cliCpu },
    coldFork: { runs: colds },
    fork: { medianMs: forkMs, runs: forks, parts, scansMs, series, cliMs, childBytes },
    standaloneFork: { medianMs: standaloneMs, runs: standalones, childBytes: standaloneBytes },
    rerun: { medianMs: rerunMs, runs: reruns },
    ratio,
    ratioWithoutScans: rerunMs / Math.max(1, forkMs - scansMs),
    snapshots: snaps,
  };
  writeFileSync(join(OUT, 'fork-100k.json'), `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`\nfigures: ${relative(process.cwd(), join(OUT, 'fork-100k.json'))}\n`);
}

await main();
