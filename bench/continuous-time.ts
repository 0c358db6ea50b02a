/**
 * Continuous-time benchmark (docs/TIME.md): whole processes of `grapevine run` under `async`
 * by state against a plain event-driven program of the same model (bench/continuous-baseline.ts,
 * typed arrays and no engine, compiled to one JavaScript file by esbuild first), run in turn
 * (A B A B ...); ratios are taken pair by pair and their median reported.
 *
 *   npx tsx bench/continuous-time.ts [--only sir,mt,sis-net,edge-sir,edge-sis,voter,voter-rate1,dw] [--runs 5]
 *     [--voter-ticks 100] [--dw-ticks 100]
 *
 * - sir: SIR, well-mixed, per contact, n = 10^5, R0 = 1.5 (the epidemic world's defaults), 10 infected.
 * - mt: Maki–Thompson, well-mixed, async, n = 10^5, one spreader.
 * - sis-net: SIS per contact on Erdős–Rényi(10^5, c = 10), 100 infected, 200 time units.
 * - edge-sir: per-edge SIR on Erdős–Rényi(10^6, c = 10), τ = 0.25, γ = 1 (T = 0.2, c·T = 2), 10 infected.
 * - edge-sis: per-edge SIS on Erdős–Rényi(10^6, c = 10), τ = 0.2, γ = 1, 20 time units from
 *   500,000 infected (about the endemic level: pair approximation 0.47).
 * - voter: Watts–Strogatz(10^5, k = 10, β = 0.1) until consensus or `--voter-ticks` time units
 *   (10^4 in the issue), by discordance (the world's default: agents with a disagreeing
 *   neighbour wake, events = flips) against the plain program of the same rule, which also
 *   reports the share of discordant edges over time.
 * - voter-rate1: the same with `voterRule=rate-1` (every agent wakes at rate 1) against the plain
 *   rate-1 program.
 * - dw: Deffuant–Weisbuch, well-mixed, n = 10^5, ε = 0.2, μ = 0.5, `--dw-ticks` time units.
 *
 * Events = the run's steps (each a wake of an agent that had something to do), per second of
 * whole-process wall time. Peak RSS and CPU from GNU time. The load average is printed beside
 * each model: the machine is shared, so read ratios within a pair. Needs a built dist/.
 * Figures go to bench/out/continuous-time.json.
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

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'sir,mt,sis-net,edge-sir,edge-sis,voter,voter-rate1,dw' },
    runs: { type: 'string', default: '5' },
    'voter-ticks': { type: 'string', default: '100' },
    'dw-ticks': { type: 'string', default: '100' },
  },
});

interface Sample {
  wall: number;
  cpu: number;
  rssMiB: number;
  events: number;
  out: Record<string, unknown>;
}

function timed(cmd: string[]): Sample {
  const rssFile = join(OUT, `continuous-rss-${process.pid}.txt`);
  const t0 = process.hrtime.bigint();
  const r = spawnSync(GNU_TIME, ['-f', '%M %U %S', '-o', rssFile, ...cmd], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const [kb, user, sys] = readFileSync(rssFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
  const events = Number(out.steps ?? out.events);
  return { wall, cpu: user + sys, rssMiB: kb / 1024, events, out };
}

function baselineFile(): string {
  const out = join(OUT, 'continuous-baseline.mjs');
  buildSync({
    entryPoints: [join(HERE, 'continuous-baseline.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'warning',
  });
  return out;
}

interface Model {
  name: string;
  engine: (seed: number, log: string) => string[];
  baseline: (seed: number) => string[];
}

const grapevine =
  (world: string, sets: Record<string, string | number>, extra: string[] = []) =>
  (seed: number, log: string) => [
    process.execPath,
    'bin/grapevine.mjs',
    'run',
    world,
    ...Object.entries(sets).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
    ...extra,
    ...['--seed', String(seed), '--out', log, '--force', '--quiet', '--json'],
  ];

function models(base: string): Model[] {
  const node = (...args: (string | number)[]) => [process.execPath, base, ...args.map(String)];
  const voterTicks = Number(values['voter-ticks']);
  const dwTicks = Number(values['dw-ticks']);
  return [
    {
      name: 'sir',
      engine: grapevine('epidemic', { n: 100_000, initial: 10 }, ['--ticks', '100000']),
      baseline: (s) => node('sir-mixed', 100_000, 10, 0.5, 0.6, 0.2, s),
    },
    {
      name: 'mt',
      engine: grapevine(
        'rumor',
        {
          n: 100_000,
          model: 'maki-thompson',
          network: 'complete',
          turns: 'async',
          spreaders: 1,
          insiders: 0,
          factBlocksRumor: 'false',
        },
        ['--ticks', '100000'],
      ),
      baseline: (s) => node('mt-mixed', 100_000, s),
    },
    {
      name: 'sis-net',
      engine: grapevine(
        'epidemic',
        { model: 'sis', n: 100_000, network: 'erdos-renyi', k: 10, initial: 100 },
        ['--ticks', '200'],
      ),
      baseline: (s) => node('sis-contact-er', 100_000, 10, 100, 0.5, 0.6, 0.2, 200, s),
    },
    {
      name: 'edge-sir',
      engine: grapevine(
        'epidemic',
        {
          transmission: 'per-edge',
          network: 'erdos-renyi',
          n: 1_000_000,
          k: 10,
          tau: 0.25,
          gamma: 1,
          initial: 10,
        },
        ['--ticks', '100000'],
      ),
      baseline: (s) => node('sir-edge-er', 1_000_000, 10, 0.25, 1, 10, s),
    },
    {
      name: 'edge-sis',
      engine: grapevine(
        'epidemic',
        {
          model: 'sis',
          transmission: 'per-edge',
          network: 'erdos-renyi',
          n: 1_000_000,
          k: 10,
          tau: 0.2,
          gamma: 1,
          initial: 500_000,
        },
        ['--ticks', '20'],
      ),
      baseline: (s) => node('sis-edge-er', 1_000_000, 10, 0.2, 1, 500_000, 20, s),
    },
    {
      name: 'voter',
      engine: grapevine('opinion', { model: 'voter', n: 100_000, network: 'watts-strogatz', k: 10 }, [
        '--ticks',
        String(voterTicks),
      ]),
      baseline: (s) => node('voter-disc-ws', 100_000, 10, 0.1, voterTicks, s),
    },
    {
      name: 'voter-rate1',
      engine: grapevine(
        'opinion',
        { model: 'voter', voterRule: 'rate-1', n: 100_000, network: 'watts-strogatz', k: 10 },
        ['--ticks', String(voterTicks)],
      ),
      baseline: (s) => node('voter-ws', 100_000, 10, 0.1, voterTicks, s),
    },
    {
      name: 'dw',
      engine: grapevine(
        'opinion',
        { model: 'deffuant-weisbuch', n: 100_000, network: 'complete', epsilon: 0.2, mu: 0.5 },
        ['--ticks', String(dwTicks)],
      ),
      baseline: (s) => node('dw-mixed', 100_000, 0.2, 0.5, dwTicks, s),
    },
  ];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function main(): void {
  if (!existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} is missing: install GNU time`);
  mkdirSync(OUT, { recursive: true });
  const only = new Set(String(values.only).split(','));
  const runs = Number(values.runs);
  const base = baselineFile();
  const report: Record<string, unknown>[] = [];
  for (const m of models(base).filter((x) => only.has(x.name))) {
    const load = loadavg()[0];
    const pairs: { engine: Sample; baseline: Sample }[] = [];
    for (let k = 0; k < runs; k++) {
      const log = join(OUT, `continuous-${m.name}.ndjson`);
      const engine = timed(m.engine(k + 1, log));
      rmSync(log, { force: true });
      rmSync(`${log}.verified`, { force: true });
      const baseline = timed(m.baseline(k + 1));
      pairs.push({ engine, baseline });
    }
    const row = {
      model: m.name,
      runs,
      loadBefore: load,
      loadAfter: loadavg()[0],
      engineWall: median(pairs.map((p) => p.engine.wall)),
      engineCpu: median(pairs.map((p) => p.engine.cpu)),
      engineRssMiB: Math.max(...pairs.map((p) => p.engine.rssMiB)),
      engineEvents: median(pairs.map((p) => p.engine.events)),
      engineEventsPerSec: median(pairs.map((p) => p.engine.events / p.engine.wall)),
      engineEventsPerCpuSec: median(pairs.map((p) => p.engine.events / p.engine.cpu)),
      baselineWall: median(pairs.map((p) => p.baseline.wall)),
      baselineCpu: median(pairs.map((p) => p.baseline.cpu)),
      baselineEvents: median(pairs.map((p) => p.baseline.events)),
      wallRatio: median(pairs.map((p) => p.engine.wall / p.baseline.wall)),
      cpuRatio: median(pairs.map((p) => p.engine.cpu / p.baseline.cpu)),
      wallRatios: pairs.map((p) => Number((p.engine.wall / p.baseline.wall).toFixed(2))),
      ...(pairs[0].baseline.out.discordantShare
        ? { discordantShare: pairs[0].baseline.out.discordantShare }
        : {}),
    };
    report.push(row);
    console.log(JSON.stringify(row));
  }
  writeFileSync(join(OUT, 'continuous-time.json'), `${JSON.stringify(report, null, 2)}\n`);
}

main();
