/**
 * Whole-process scale benchmark: every figure times a complete process, start-up,
 * network generation and log writing included, from outside.
 *
 *   npx tsx bench/scale.ts [--only mt,1m,10m] [--runs 5] [--mesa-runs 3] [--runs-10m 1] [--seed 1]
 *
 * - mt: Maki-Thompson (`contact=delayed`) on Watts-Strogatz(10^5, k=10, beta=0.1):
 *   `grapevine run` against the typed-array baseline (bench/scale-baseline.ts, compiled to one
 *   JavaScript file by esbuild first, so that neither side is timed through tsx), run in turn
 *   (A B A B ...); ratio = engine wall / baseline wall taken pair by pair, median reported.
 *   Both must end with the same ticks and deliveries (else the run is reported as a mismatch).
 *   Mesa (bench/mesa_maki_thompson.py, the same model written as a Mesa 3 user would) only when
 *   `python3 -c "import mesa"` works (otherwise skipped with a message; PYTHONPATH is passed
 *   on): it runs in the first `--mesa-runs` rounds (default 3), after the other two, and is
 *   reported as Mesa wall / grapevine wall pair by pair. Its random numbers are not
 *   grapevine's, so its ticks and reach are printed beside the engine's to compare in
 *   distribution (docs/PERFORMANCE.md).
 * - 1m: the same world at 10^6 agents (goal <= 5 s wall, <= 1 GB peak RSS).
 * - 10m: 10^7 agents (goal: completes, <= 6 GB peak RSS); `--runs-10m` runs (default 1).
 * Peak RSS and CPU (user + system) are GNU time's figures for the child (n/a without
 * /usr/bin/time; CPU seconds move less than wall with the machine's load);
 * deliveries/s = the run's deliveries / whole-process wall. The load average is printed beside
 * each section: the machine is shared, so quote medians with it. Needs a built dist/
 * (`npm run build`). Figures go to bench/out/scale.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const OUT = join(HERE, 'out');
const GNU_TIME = '/usr/bin/time';

interface Run {
  wall: number;
  /** User + system CPU seconds of the child (GNU time), null without it. */
  cpu: number | null;
  peakRss: number | null;
  ticks: number;
  deliveries: number;
}

/** Runs `cmd` to completion; wall in seconds, peak RSS in bytes (GNU time), stdout kept. */
function timed(cmd: string[]): { wall: number; cpu: number | null; peakRss: number | null; stdout: string } {
  const rssFile = join(OUT, `scale-rss-${process.pid}.txt`);
  const useTime = existsSync(GNU_TIME);
  const argv = useTime ? [GNU_TIME, '-f', '%M %U %S', '-o', rssFile, ...cmd] : cmd;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  if (!useTime) return { wall, cpu: null, peakRss: null, stdout: r.stdout };
  const [kb, user, sys] = readFileSync(rssFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { wall, cpu: user + sys, peakRss: kb * 1024, stdout: r.stdout };
}

/** One `grapevine run rumor` of the Maki-Thompson world; ticks and deliveries from its `end` line. */
function engineRun(n: number, seed: number): Run & { aware: MesaRun['aware'] } {
  const log = join(OUT, `scale-${n}-s${seed}.ndjson`);
  rmSync(log, { force: true });
  const r = timed([
    process.execPath,
    'bin/grapevine.mjs',
    'run',
    'rumor',
    ...['--set', `n=${n}`, '--set', 'model=maki-thompson', '--set', 'contact=delayed'],
    ...['--seed', String(seed), '--ticks', '100000', '--out', log, '--quiet'],
  ]);
  const end = JSON.parse(lastLine(log)) as {
    type: string;
    ticks: number;
    deliveries: number;
    summary: { fact: { aware: number }; rumor: { aware: number } };
  };
  if (end.type !== 'end') throw new Error(`${log} has no end line`);
  rmSync(log, { force: true });
  const aware = { fact: end.summary.fact.aware, rumor: end.summary.rumor.aware };
  return {
    wall: r.wall,
    cpu: r.cpu,
    peakRss: r.peakRss,
    ticks: end.ticks,
    deliveries: end.deliveries,
    aware,
  };
}

function lastLine(path: string): string {
  const text = readFileSync(path, 'utf8');
  return text.slice(text.lastIndexOf('\n', text.length - 2) + 1).trim();
}

/**
 * The baseline compiled to one plain JavaScript file (its packages left to Node), once per
 * call of this script: timed through tsx, its whole process would carry tsx's start-up and
 * TypeScript compilation (~1 s), which the engine's bundled CLI does not pay.
 */
let baselineFile: string | undefined;
function compiledBaseline(): string {
  if (baselineFile) return baselineFile;
  const out = join(OUT, 'scale-baseline.mjs');
  buildSync({
    entryPoints: [join(ROOT, 'bench', 'scale-baseline.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: out,
    logLevel: 'warning',
  });
  baselineFile = out;
  return out;
}

function baselineRun(n: number, seed: number): Run {
  const r = timed([process.execPath, compiledBaseline(), String(n), String(seed), 'maki-thompson']);
  const out = JSON.parse(r.stdout) as { ticks: number; deliveries: number };
  return { wall: r.wall, cpu: r.cpu, peakRss: r.peakRss, ticks: out.ticks, deliveries: out.deliveries };
}

/** What bench/mesa_maki_thompson.py prints, with its process figures. */
interface MesaRun extends Run {
  version: string;
  aware: { fact: number; rumor: number };
}

function mesaRun(n: number, seed: number): MesaRun {
  const r = timed(['python3', 'bench/mesa_maki_thompson.py', String(n), String(seed)]);
  const out = JSON.parse(r.stdout) as {
    mesa: string;
    ticks: number;
    deliveries: number;
    aware: MesaRun['aware'];
  };
  return {
    wall: r.wall,
    cpu: r.cpu,
    peakRss: r.peakRss,
    ticks: out.ticks,
    deliveries: out.deliveries,
    version: out.mesa,
    aware: out.aware,
  };
}

/** The installed Mesa's version, or null when `python3 -c "import mesa"` fails. */
function mesaVersion(): string | null {
  const r = spawnSync('python3', ['-c', 'import mesa; print(mesa.__version__)'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const mb = (b: number | null): string => (b === null ? 'n/a' : `${(b / 2 ** 20).toFixed(0)} MB`);

function summarise(label: string, n: number, runs: Run[]): Record<string, unknown> {
  const wall = median(runs.map((r) => r.wall));
  const rss = runs.every((r) => r.peakRss !== null) ? median(runs.map((r) => r.peakRss!)) : null;
  const dps = median(runs.map((r) => r.deliveries / r.wall));
  const cpu = runs.every((r) => r.cpu !== null) ? median(runs.map((r) => r.cpu!)) : null;
  console.log(
    `| ${label} | ${n.toLocaleString('en')} | ${runs.length} | ${wall.toFixed(2)} s (${Math.min(...runs.map((r) => r.wall)).toFixed(2)}–${Math.max(...runs.map((r) => r.wall)).toFixed(2)}) | ${cpu === null ? 'n/a' : `${cpu.toFixed(2)} s`} | ${mb(rss)} | ${rss === null ? 'n/a' : (rss / n).toFixed(0)} | ${Math.round(dps).toLocaleString('en')} | ${runs[0].ticks} | ${runs[0].deliveries.toLocaleString('en')} |`,
  );
  return {
    label,
    n,
    runs,
    medianWall: wall,
    medianPeakRss: rss,
    bytesPerAgent: rss && rss / n,
    deliveriesPerSecond: dps,
  };
}

const HEAD =
  '| what | agents | runs | wall median (min–max) | cpu (user+sys) median | peak RSS | bytes/agent | deliveries/s | ticks | deliveries |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|';

function mtSection(runs: number, mesaRuns: number, seed: number): Record<string, unknown> {
  const n = 100_000;
  console.log(
    `\n## Maki-Thompson, WS(10^5, k=10, beta=0.1), seed ${seed} (load before: ${load()})\n\n${HEAD}`,
  );
  const mesa = mesaVersion();
  const engine: (Run & { aware: MesaRun['aware'] })[] = [];
  const base: Run[] = [];
  const mesaAll: MesaRun[] = [];
  for (let r = 0; r < runs; r++) {
    engine.push(engineRun(n, seed));
    base.push(baselineRun(n, seed));
    if (mesa !== null && r < mesaRuns) mesaAll.push(mesaRun(n, seed));
  }
  const e = summarise('grapevine run', n, engine);
  const b = summarise('typed-array baseline', n, base);
  const same = engine.every((r, i) => r.ticks === base[i].ticks && r.deliveries === base[i].deliveries);
  const ratios = engine.map((r, i) => r.wall / base[i].wall);
  const cpuRatios = engine.every((r, i) => r.cpu && base[i].cpu)
    ? engine.map((r, i) => r.cpu! / base[i].cpu!)
    : null;
  console.log(
    `\nratio grapevine / baseline, pair by pair: median ${median(ratios).toFixed(2)}x (${ratios.map((x) => x.toFixed(2)).join(', ')}; goal <= 1.5x); CPU-time ratio median ${cpuRatios ? `${median(cpuRatios).toFixed(2)}x` : 'n/a'}; same ticks and deliveries: ${same ? 'yes' : 'NO (semantics differ)'}; load after: ${load()}`,
  );
  if (mesa === null || mesaAll.length === 0) {
    console.log('Mesa: skipped (no python3 with mesa importable here)');
    return { engine: e, baseline: b, ratios, medianRatio: median(ratios), cpuRatios, sameRun: same };
  }
  console.log(`\n${HEAD}`);
  const m = summarise(`Mesa ${mesa} (bench/mesa_maki_thompson.py)`, n, mesaAll);
  const mesaRatios = mesaAll.map((r, i) => r.wall / engine[i].wall);
  const mesaCpu = mesaAll.every((r, i) => r.cpu && engine[i].cpu)
    ? mesaAll.map((r, i) => r.cpu! / engine[i].cpu!)
    : null;
  const reach = (a: MesaRun['aware']): string =>
    `fact ${(a.fact / n).toFixed(3)}, rumor ${(a.rumor / n).toFixed(3)}`;
  console.log(
    `\nMesa / grapevine, pair by pair: wall median ${median(mesaRatios).toFixed(1)}x (${mesaRatios.map((x) => x.toFixed(1)).join(', ')}; goal >= 30x); CPU-time median ${mesaCpu ? `${median(mesaCpu).toFixed(1)}x` : 'n/a'}; load after: ${load()}`,
  );
  console.log(
    `same model, in distribution (different random numbers): grapevine ${engine[0].ticks} ticks, ${reach(engine[0].aware)}; Mesa ${mesaAll[0].ticks} ticks, ${reach(mesaAll[0].aware)} (docs/PERFORMANCE.md compares over seeds)`,
  );
  return {
    engine: e,
    baseline: b,
    ratios,
    medianRatio: median(ratios),
    cpuRatios,
    sameRun: same,
    mesa: { ...m, version: mesa, ratios: mesaRatios, medianRatio: median(mesaRatios), cpuRatios: mesaCpu },
  };
}

function bigSection(n: number, runs: number, seed: number, goal: string): Record<string, unknown> {
  console.log(`\n## ${n.toLocaleString('en')} agents, ${goal} (load before: ${load()})\n\n${HEAD}`);
  const all: Run[] = [];
  for (let r = 0; r < runs; r++) all.push(engineRun(n, seed));
  const s = summarise('grapevine run', n, all);
  console.log(`\nload after: ${load()}`);
  return s;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      only: { type: 'string', default: 'mt,1m,10m' },
      runs: { type: 'string', default: '5' },
      'runs-10m': { type: 'string', default: '1' },
      'mesa-runs': { type: 'string', default: '3' },
      seed: { type: 'string', default: '1' },
    },
  });
  const runs = Number(values.runs);
  const seed = Number(values.seed);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`--runs must be an integer >= 1, got ${values.runs}`);
  const mesaRuns = Number(values['mesa-runs']);
  if (!Number.isInteger(mesaRuns) || mesaRuns < 0)
    throw new Error(`--mesa-runs must be an integer >= 0, got ${values['mesa-runs']}`);
  if (!Number.isSafeInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);
  if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) throw new Error('dist/ is missing: run npm run build');
  mkdirSync(OUT, { recursive: true });
  const only = new Set(values.only.split(','));
  const result: Record<string, unknown> = { seed, runs };
  if (only.has('mt')) result.mt = mtSection(runs, mesaRuns, seed);
  if (only.has('1m'))
    result.oneMillion = bigSection(1_000_000, runs, seed, 'goal <= 5 s wall, <= 1 GB peak RSS');
  if (only.has('10m'))
    result.tenMillion = bigSection(
      10_000_000,
      Math.max(1, Number(values['runs-10m']) || 1),
      seed,
      'goal: completes, <= 6 GB peak RSS',
    );
  writeFileSync(join(OUT, 'scale.json'), `${JSON.stringify(result, null, 2)}\n`);
}

main();
