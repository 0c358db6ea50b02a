/**
 * Benchmark for counterfactual batches: a rumour-world parent of `--n` agents
 * (default 10^6) run for `--ticks` ticks with a snapshot at `--at` (default 80% of the
 * run), then `grapevine fork --at AT --replicates R` through the CLI (R treated and R
 * control children, delta by default; `--standalone` to compare). Reports the total wall
 * time, the bytes written, the fork process's peak RSS (/usr/bin/time) and the cost per
 * child against one rerun of the parent from tick 0.
 *
 *   npx tsx bench/fork-batch.ts [--n 1000000] [--ticks 50] [--at 40]
 *     [--every AT] [--replicates 100] [--standalone] [--seed 1] [--in-process]
 *
 * `--every E` puts the parent's snapshots every E ticks (default: at --at only), so a fork
 * tick between snapshots makes each child rerun the recorded ticks after the snapshot
 * unless the batch restores once. `--in-process` (no CLI) measures, in this process, one
 * fork alone (readRecordedRun + continueRun, as `grapevine fork` does) against the batch as
 * `fork --replicates R` runs it in its thread (readRecordedRun once, restoreOnce, 2R
 * children), in CPU seconds, and checks that the batch's first child equals the fork alone.
 *
 * Uses the long-lasting rumour setting of bench/fork-100k.ts (independent cascade on an
 * almost regular ring). Every child must verify its shape (a delta header unless
 * --standalone); one child is verified by `grapevine replay --verify`. Logs go to
 * bench/out/fork-batch/, figures to bench/out/fork-batch.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { continueRun, LogWriter, readRecordedRun, restoreOnce } from '../src/replay/index.ts';
import { type Intervention, runWorld } from '../src/world/index.ts';
import { world } from '../worlds/rumor/index.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'out', 'fork-batch');
const BIN = join(HERE, '..', 'bin', 'grapevine.mjs');
const def = world;

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000000' },
    ticks: { type: 'string', default: '50' },
    at: { type: 'string' },
    replicates: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    standalone: { type: 'boolean', default: false },
    every: { type: 'string' },
    'in-process': { type: 'boolean', default: false },
  },
});
const n = Number(values.n);
const ticks = Number(values.ticks);
const at = values.at === undefined ? Math.round(ticks * 0.8) : Number(values.at);
const replicates = Number(values.replicates);
const seed = Number(values.seed);
const every = values.every === undefined ? at : Number(values.every);
const params = { n, model: 'independent-cascade', p: 0.5, network: 'watts-strogatz', k: 10, beta: 0.0002 };

async function rerun(
  path: string,
): Promise<{ ms: number; cpuMs: number; digest: string; reason: string; ticks: number }> {
  rmSync(path, { force: true });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await runWorld(def, {
    params,
    seed,
    ticks,
    snapshotEvery: every,
    openLog: (header) => LogWriter.create(path, { ...header, wall: { startedAt: new Date().toISOString() } }),
  });
  const c = process.cpuUsage(c0);
  return {
    ms: performance.now() - t0,
    cpuMs: (c.user + c.system) / 1000,
    digest: r.digest,
    reason: r.reason,
    ticks: r.ticks,
  };
}

/** CPU milliseconds (user + system) of this process's waited-for children so far (Linux /proc). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

/** Runs the built CLI under /usr/bin/time: wall, CPU (threads and worker threads included) and peak RSS. */
function cli(args: string[]): { ms: number; cpuMs: number; peakRssMb: number; stdout: string } {
  const t0 = performance.now();
  const c0 = childrenCpuMs();
  const timeFile = join(OUT, 'cli.time');
  const c = spawnSync('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, BIN, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (c.status !== 0) throw new Error(`grapevine ${args.join(' ')} exited ${c.status}: ${c.stderr}`);
  const kb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop());
  return { ms: performance.now() - t0, cpuMs: childrenCpuMs() - c0, peakRssMb: kb / 1024, stdout: c.stdout };
}

const cpuS = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1e6;
const reseed = (k: number) => [{ type: 'reseed', seed: 7000 + k } as Intervention];

/** One fork alone, then the batch in this thread (restore once); CPU seconds of each. */
async function inProcess(parent: string, rerunCpu: number): Promise<void> {
  const dir = join(OUT, 'in-process');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const layout = values.standalone ? 'standalone' : 'delta';
  const c0 = process.cpuUsage();
  const alone = join(dir, 'alone.ndjson');
  const one = await readRecordedRun(parent, { restoreTicks: [at] });
  const a = await continueRun({
    def,
    recorded: one,
    path: parent,
    atTick: at,
    out: alone,
    interventions: reseed(1),
    layout,
    ownsRecorded: true,
  });
  const single = cpuS(process.cpuUsage(c0));
  const c1 = process.cpuUsage();
  const recorded = await readRecordedRun(parent, { restoreTicks: [at] });
  const factory = await restoreOnce(def, recorded, parent, at);
  const setup = cpuS(process.cpuUsage(c1));
  const each: number[] = [];
  let first = '';
  for (let k = 1; k <= 2 * replicates; k++) {
    const ck = process.cpuUsage();
    const r = await factory.fork({ out: join(dir, `child-${k}.ndjson`), interventions: reseed(k), layout });
    each.push(cpuS(process.cpuUsage(ck)));
    if (k === 1) first = r.digest;
  }
  const batch = cpuS(process.cpuUsage(c1));
  if (first !== a.digest)
    throw new Error(`the batch's first child ${first} differs from the fork alone ${a.digest}`);
  const sorted = [...each].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)];
  const perChild = batch / each.length;
  const rows = [
    `| measure (rumour world, n=${n}, fork at ${at}, snapshots every ${every}, ${layout}, in-process CPU s) | value |`,
    '|---|--:|',
    `| rerun from tick 0 | ${rerunCpu.toFixed(3)} |`,
    `| one fork alone (read parent + continueRun) | ${single.toFixed(3)} = ${(single / rerunCpu).toFixed(3)} x rerun |`,
    `| batch of ${each.length} (restore once, shared ${factory.shared}): total | ${batch.toFixed(3)} |`,
    `| batch: read parent + restoreOnce | ${setup.toFixed(3)} |`,
    `| batch: per child, all in (total / children) | ${perChild.toFixed(3)} = ${(perChild / single).toFixed(3)} x one fork alone = ${(perChild / rerunCpu).toFixed(3)} x rerun |`,
    `| batch: per child, median (min, max) of the children alone | ${median.toFixed(3)} (${sorted[0].toFixed(3)}, ${sorted.at(-1)!.toFixed(3)}) |`,
  ];
  writeFileSync(
    join(HERE, 'out', 'fork-batch-in-process.json'),
    `${JSON.stringify({ n, ticks, at, every, replicates, layout, rerunCpu, single, setup, batch, each, shared: factory.shared, loadavg: loadavg() }, null, 2)}\n`,
  );
  process.stdout.write(`${rows.join('\n')}\n`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const parent = join(OUT, 'parent.ndjson');
  const load0 = loadavg();
  const p = await rerun(parent);
  if (p.ticks < at) throw new Error(`the parent ended at tick ${p.ticks} (${p.reason}), before --at ${at}`);
  const again = await rerun(join(OUT, 'rerun.ndjson'));
  if (again.digest !== p.digest) throw new Error('the rerun does not reproduce the parent');
  rmSync(join(OUT, 'rerun.ndjson'), { force: true });
  if (values['in-process']) return inProcess(parent, again.cpuMs / 1000);
  const dir = join(OUT, values.standalone ? 'children-standalone' : 'children');
  rmSync(dir, { recursive: true, force: true });
  const args = ['fork', parent, '--at', String(at), '--replicates', String(replicates), '--seed', '7'];
  const batch = cli([...args, '--out', dir, '--json', ...(values.standalone ? ['--standalone'] : [])]);
  const files = readdirSync(dir).map((f) => join(dir, f));
  const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
  const delta = files.every((f) => readFileSync(f, 'utf8').startsWith('{"delta":'));
  const verify = cli(['replay', files[0], '--verify', '--json']);
  const perChild = batch.ms / files.length;
  const figures = {
    n,
    ticks,
    at,
    replicates,
    children: files.length,
    layout: values.standalone ? 'standalone' : 'delta',
    allDelta: delta,
    parent: { ms: p.ms, bytes: statSync(parent).size, digest: p.digest, reason: p.reason, ticks: p.ticks },
    rerunMs: again.ms,
    rerunCpuMs: again.cpuMs,
    batch: {
      ms: batch.ms,
      cpuMs: batch.cpuMs,
      perChildCpuOverRerunCpu: batch.cpuMs / files.length / again.cpuMs,
      bytesWritten: bytes,
      peakRssMb: batch.peakRssMb,
      perChildMs: perChild,
      perChildOverRerun: perChild / again.ms,
    },
    verifyOneChildMs: verify.ms,
    machine: {
      cpus: availableParallelism(),
      model: cpus()[0]?.model,
      node: process.version,
      loadavgAtStart: load0,
    },
  };
  writeFileSync(join(HERE, 'out', 'fork-batch.json'), `${JSON.stringify(figures, null, 2)}\n`);
  const mb = (b: number) => (b / 2 ** 20).toFixed(1);
  process.stdout.write(
    `${[
      `| measure (rumour world, n=${n}, ${p.ticks} ticks, fork at ${at}, ${figures.layout}) | value |`,
      '|---|--:|',
      `| parent run (log ${mb(figures.parent.bytes)} MiB) | ${(p.ms / 1000).toFixed(2)} s |`,
      `| rerun from tick 0 | ${(again.ms / 1000).toFixed(2)} s |`,
      `| fork --replicates ${replicates} (${files.length} children), CLI, total wall | ${(batch.ms / 1000).toFixed(2)} s |`,
      `| bytes written by the batch | ${mb(bytes)} MiB |`,
      `| peak RSS of the fork process | ${batch.peakRssMb.toFixed(0)} MB |`,
      `| per child | ${(perChild / 1000).toFixed(3)} s = ${(perChild / again.ms).toFixed(3)} x a rerun |`,
      `| CPU seconds: rerun; batch (the fork process); per child / rerun | ${(again.cpuMs / 1000).toFixed(2)}; ${(batch.cpuMs / 1000).toFixed(2)}; ${(batch.cpuMs / files.length / again.cpuMs).toFixed(3)} |`,
      `| replay --verify of one child | ${(verify.ms / 1000).toFixed(2)} s |`,
    ].join('\n')}\n`,
  );
}

await main();
