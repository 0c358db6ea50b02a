import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Json, type RunResult, runWorld } from '../../../src/index.ts';
import { LogWriter } from '../../../src/public/replay.ts';
import { world } from '../../../worlds/opinion/index.ts';
import { tempDir } from '../../support/temp-dir.ts';

const dir = tempDir('encounters');
let logs = 0;

/** Runs the opinion world with a full log on disk (the digest covers every encounter). */
async function run(params: Record<string, Json>, ticks: number, seed = 7): Promise<RunResult> {
  const path = join(dir, `run-${logs++}.ndjson`);
  return runWorld(world, {
    params: { reportOpinions: true, ...params },
    ticks,
    seed,
    level: 'full',
    openLog: (h) => LogWriter.create(path, h),
  });
}

function numbers(r: RunResult, key: string): number[] {
  return r.summary[key] as number[];
}

const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;

describe('opinion world: Deffuant–Weisbuch encounters', () => {
  it('conserves the mean exactly and keeps opinions inside the initial range', async () => {
    const r = await run(
      { model: 'deffuant-weisbuch', n: 200, network: 'watts-strogatz', k: 6, epsilon: 0.3 },
      100,
    );
    const u = numbers(r, 'initialOpinions');
    const x = numbers(r, 'finalOpinions');
    expect(Math.abs(mean(x) - mean(u))).toBeLessThan(1e-12);
    expect(Math.min(...x)).toBeGreaterThanOrEqual(Math.min(...u));
    expect(Math.max(...x)).toBeLessThanOrEqual(Math.max(...u));
    // the opinions did move: the variance fell well below that of the start
    const variance = (v: number[]) => mean(v.map((y) => (y - mean(v)) ** 2));
    expect(variance(x)).toBeLessThan(variance(u) / 4);
  });

  it('with ε above the opinion range reaches consensus at the initial mean', async () => {
    const r = await run(
      { model: 'deffuant-weisbuch', n: 50, network: 'complete', epsilon: 1.5, mu: 0.5, tolerance: 1e-9 },
      5000,
    );
    expect(r.reason).toBe('converged');
    expect(r.summary.converged).toBe(true);
    expect(r.summary.clusters).toBe(1);
    const target = mean(numbers(r, 'initialOpinions'));
    for (const x of numbers(r, 'finalOpinions')) expect(Math.abs(x - target)).toBeLessThan(1e-9);
  });

  it('with a small ε on a well-mixed population settles into several clusters', async () => {
    const r = await run(
      { model: 'deffuant-weisbuch', n: 300, network: 'complete', epsilon: 0.1, tolerance: 1e-6 },
      5000,
    );
    expect(r.summary.converged).toBe(true);
    // about 1/(2ε) clusters (Deffuant et al. 2000); small outlying groups may add a few
    expect(r.summary.clusters as number).toBeGreaterThanOrEqual(3);
  });
});

describe('opinion world: voter model', () => {
  it('reaches consensus on a small complete population, on one of the initial opinions', async () => {
    const r = await run({ model: 'voter', n: 30, network: 'complete', share: 0.5 }, 100_000);
    expect(r.reason).toBe('converged');
    const x = numbers(r, 'finalOpinions');
    expect(numbers(r, 'initialOpinions').filter((v) => v === 1).length).toBe(15);
    expect([0, 1]).toContain(r.summary.winner);
    expect(x.every((v) => v === r.summary.winner)).toBe(true);
    expect(r.summary.consensusTime).toBe(r.ticks);
    expect(r.ticks).toBeGreaterThan(0);
  });

  it('with share 0 or 1 is at consensus from the start', async () => {
    const r = await run({ model: 'voter', n: 20, network: 'complete', share: 1 }, 100);
    expect(r.summary.winner).toBe(1);
  });
});

describe('opinion world: encounter models are deterministic', () => {
  for (const model of ['voter', 'deffuant-weisbuch'])
    it(`${model}: same seed, same digest; another seed, another digest`, async () => {
      const p = { model, n: 60, network: 'watts-strogatz', k: 4 };
      const a = await run(p, 50, 11);
      const b = await run(p, 50, 11);
      const c = await run(p, 50, 12);
      expect(a.digest).toBe(b.digest);
      expect(a.summary).toEqual(b.summary);
      expect(c.digest).not.toBe(a.digest);
    });

  it('the columnar and XState executors give the same opinions', async () => {
    for (const model of ['voter', 'deffuant-weisbuch']) {
      const p = { model, n: 60, network: 'watts-strogatz', k: 4 };
      const a = await run({ ...p, executor: 'columnar' }, 50, 3);
      const b = await run({ ...p, executor: 'xstate' }, 50, 3);
      expect(b.summary.finalOpinions).toEqual(a.summary.finalOpinions);
      expect(b.ticks).toBe(a.ticks);
    }
  });
});
