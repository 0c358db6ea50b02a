import { rmSync, statSync } from 'node:fs';
import { LogWriter } from '../src/replay/index.ts';
import { runWorld } from '../src/world/index.ts';
import { world } from '../worlds/rumor/index.ts';
import { buildRumorSetup, RumorBaseline } from './rumor-baseline.ts';
import { InspectorProfile } from './tools/inspector-profile.ts';
import { type RssFigures, RssSampler } from './tools/rss-sampler.ts';

/** Which implementation a measurement ran. */
export type Impl = 'engine' | 'baseline';

/** What to measure. */
export interface MeasureOptions {
  n: number;
  seed: number;
  /** Replay log path (engine only); `.gz` writes gzip members. */
  logPath: string;
  /** Write a CPU profile of the run phase (set-up excluded) to this path. */
  profilePath?: string;
}

/** One implementation's figures. */
export interface Measurement {
  impl: Impl;
  n: number;
  seed: number;
  reason: string;
  /** Building the network and the world (engine: until `onStart`), ms. */
  setupMs: number;
  /** Of which the Watts-Strogatz generator alone (baseline child only), ms. */
  networkMs?: number;
  /** Seeding and the tick loop, ms. */
  runMs: number;
  /** CPU time (user + system, all threads: GC helpers included) of the run phase, ms. */
  runCpuMs: number;
  totalMs: number;
  ticks: number;
  steps: number;
  deliveries: number;
  aware: { fact: number; rumor: number };
  rss: RssFigures;
  /** max(sampled peak, kernel maxRSS) - baseline, over n. */
  bytesPerAgent: number;
  /** The model's own typed columns per agent (engine: `executor.bytesPerAgent()`). */
  modelBytesPerAgent: number;
  logBytes?: number;
  logPath?: string;
  digest?: string;
}

function finish(base: Omit<Measurement, 'bytesPerAgent' | 'rss'>, sampler: RssSampler): Measurement {
  const rss = sampler.figures();
  const peak = Math.max(rss.peak, rss.maxRss);
  return { ...base, rss, bytesPerAgent: (peak - rss.baseline) / base.n };
}

/** Runs `worlds/rumor` (Daley-Kendall on Watts-Strogatz) to extinction with the replay log on. */
export async function measureEngine(o: MeasureOptions): Promise<Measurement> {
  rmSync(o.logPath, { force: true });
  const sampler = RssSampler.start();
  let modelBytes = 0;
  let profile: InspectorProfile | undefined;
  const t0 = performance.now();
  let t1 = t0;
  let cpu = process.cpuUsage();
  const result = await runWorld(world, {
    // the hand-written baseline is the 1-tick message-passing variant of Daley–Kendall
    params: { n: o.n, contact: 'delayed' },
    seed: o.seed,
    openLog: (header) => LogWriter.create(o.logPath, header),
    onStart: (view) => {
      modelBytes = view.executor.bytesPerAgent();
      sampler.sample();
      if (o.profilePath) profile = InspectorProfile.start();
      cpu = process.cpuUsage();
      t1 = performance.now();
    },
    onTick: () => sampler.sample(),
  });
  const t2 = performance.now();
  const runCpu = process.cpuUsage(cpu);
  if (profile && o.profilePath) profile.stop(o.profilePath);
  const summary = result.summary as Record<string, { aware: number }>;
  return finish(
    {
      impl: 'engine',
      n: o.n,
      seed: o.seed,
      reason: result.reason,
      setupMs: t1 - t0,
      runMs: t2 - t1,
      runCpuMs: (runCpu.user + runCpu.system) / 1000,
      totalMs: t2 - t0,
      ticks: result.ticks,
      steps: result.steps,
      deliveries: result.deliveries,
      aware: { fact: summary.fact.aware, rumor: summary.rumor.aware },
      modelBytesPerAgent: modelBytes,
      logBytes: statSync(o.logPath).size,
      logPath: o.logPath,
      digest: result.digest,
    },
    sampler,
  );
}

/** Runs the hand-written typed-array model on the same network and seeds. */
export function measureBaseline(o: MeasureOptions): Measurement {
  const sampler = RssSampler.start();
  const t0 = performance.now();
  const setup = buildRumorSetup({ n: o.n, seed: o.seed });
  const tNet = performance.now();
  const model = new RumorBaseline(setup);
  sampler.sample();
  const profile = o.profilePath ? InspectorProfile.start() : undefined;
  const cpu = process.cpuUsage();
  const t1 = performance.now();
  const result = model.run();
  const t2 = performance.now();
  const runCpu = process.cpuUsage(cpu);
  profile?.stop(o.profilePath!);
  return finish(
    {
      impl: 'baseline',
      n: o.n,
      seed: o.seed,
      reason: result.reason,
      setupMs: t1 - t0,
      networkMs: tNet - t0,
      runMs: t2 - t1,
      runCpuMs: (runCpu.user + runCpu.system) / 1000,
      totalMs: t2 - t0,
      ticks: result.ticks,
      steps: result.steps,
      deliveries: result.deliveries,
      aware: result.aware,
      modelBytesPerAgent: model.bytesPerAgent(),
    },
    sampler,
  );
}
