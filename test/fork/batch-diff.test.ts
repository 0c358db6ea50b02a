// Counterfactual batches (`fork --replicates`) and `grapevine diff`: treated and control
// children with different future seeds, per-metric means with 95% confidence intervals,
// and the first difference between two runs. The commands run in this process (cliChecked, one
// after the other, nothing left open): what is checked is what they write and print, and a
// process start costs ~0.3 CPU-s; fork-own-future.test.ts runs fork in real processes.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliChecked, cliCheckedJson } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { endOfTickIndex, expectForkOf, type Line, parsed, verifyInProcess, write } from './helpers.ts';

const dir = tempDir('fork-batch');
const parent = join(dir, 'parent.ndjson');
const AT = 10;
let parentRun: Record<string, unknown>;

interface Stats {
  n: number;
  mean: number;
  se: number;
  ci95: [number, number];
}

function finalMetrics(path: string): Record<string, number> {
  const ticks = parsed(path).filter((l) => l.type === 'tick');
  return (ticks.at(-1) as Line & { metrics: Record<string, number> }).metrics;
}

function interventions(path: string): unknown[] {
  return parsed(path)
    .filter((l) => l.type === 'intervene')
    .map((l) => (l as Line & { intervention: unknown }).intervention);
}

/** Mean, standard error and Student-t 95% interval, computed here independently (t(2) = scipy.stats.t.ppf(0.975, 2)). */
function stats3(xs: number[]): Stats {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  const se = sd / Math.sqrt(xs.length);
  return { n: xs.length, mean, se, ci95: [mean - 4.302652729749462 * se, mean + 4.302652729749462 * se] };
}

function expectStats(got: Stats, want: Stats): void {
  expect(got.n).toBe(want.n);
  expect(got.mean).toBeCloseTo(want.mean, 9);
  expect(got.se).toBeCloseTo(want.se, 9);
  expect(got.ci95[0]).toBeCloseTo(want.ci95[0], 6);
  expect(got.ci95[1]).toBeCloseTo(want.ci95[1], 6);
}

beforeAll(async () => {
  parentRun = await cliCheckedJson([
    'run',
    'rumor',
    '--set',
    'n=3000',
    '--seed',
    '3',
    '--snapshot-every',
    '10',
    '--out',
    parent,
  ]);
});

describe('fork --replicates', () => {
  const batch = join(dir, 'batch');
  let report: {
    replicates: number;
    children: { arm: string; replicate: number; log: string; digest: string }[];
  };
  const iv = { type: 'message', from: -1, to: 'all', kind: 'tell', item: 'rumor' };

  beforeAll(async () => {
    const file = write(dir, 'tell-all.yaml', 'type: message\nto: all\nkind: tell\nitem: rumor\n');
    report = (await cliCheckedJson([
      'fork',
      parent,
      '--at',
      String(AT),
      '--intervene',
      file,
      '--replicates',
      '3',
      '--out',
      batch,
    ])) as unknown as typeof report;
  });

  it('writes 3 treated and 3 control children, each a verified fork of the parent', async () => {
    expect(readdirSync(batch).sort()).toEqual([
      'control-1.ndjson',
      'control-2.ndjson',
      'control-3.ndjson',
      'treated-1.ndjson',
      'treated-2.ndjson',
      'treated-3.ndjson',
    ]);
    expect(report.children).toHaveLength(6);
    for (const c of report.children) {
      expectForkOf(parent, c.log, AT, true);
      const reseed = { type: 'reseed', seed: (parentRun.seed as number) * 1000 + c.replicate };
      expect(interventions(c.log)).toEqual(c.arm === 'treated' ? [iv, reseed] : [reseed]);
      expect(await verifyInProcess(c.log)).toBe(c.digest);
    }
  });

  it('controls differ from each other (different future seeds) and from their treated twin', () => {
    const digest = (arm: string, k: number) =>
      report.children.find((c) => c.arm === arm && c.replicate === k)!.digest;
    const controls = [1, 2, 3].map((k) => digest('control', k));
    expect(new Set(controls).size).toBe(3);
    expect(controls).not.toContain(parentRun.digest);
    for (const k of [1, 2, 3]) expect(digest('treated', k)).not.toBe(digest('control', k));
  });

  it('diff DIR --json: per-metric means and 95% CIs of both arms and the effect', async () => {
    const d = (await cliCheckedJson(['diff', batch])) as {
      replicates: number;
      metrics: { metric: string; control: Stats; treated: Stats; effect: Stats }[];
    };
    expect(d.replicates).toBe(3);
    const keys = Object.keys(finalMetrics(join(batch, 'control-1.ndjson'))).sort();
    expect(d.metrics.map((m) => m.metric)).toEqual(keys);
    for (const m of d.metrics) {
      const c = [1, 2, 3].map((k) => finalMetrics(join(batch, `control-${k}.ndjson`))[m.metric]);
      const t = [1, 2, 3].map((k) => finalMetrics(join(batch, `treated-${k}.ndjson`))[m.metric]);
      expectStats(m.control, stats3(c));
      expectStats(m.treated, stats3(t));
      expect(m.effect.mean).toBeCloseTo(m.treated.mean - m.control.mean, 9);
      expect(m.effect.ci95[0]).toBeLessThanOrEqual(m.effect.mean);
      expect(m.effect.ci95[1]).toBeGreaterThanOrEqual(m.effect.mean);
    }
    // telling everyone the rumour makes everyone aware of it: a clear effect
    const aware = d.metrics.find((m) => m.metric === 'rumor.aware')!;
    expect(aware.treated.mean).toBe(3000);
    expect(aware.effect.ci95[0]).toBeGreaterThan(0);
  });
});

describe('diff of two logs', () => {
  it('parent vs a child with an intervention: the first differing seq and tick, metric deltas, agents', async () => {
    const file = write(
      dir,
      'params.json',
      JSON.stringify({ type: 'params', set: { model: 'maki-thompson' } }),
    );
    const child = join(dir, 'child.ndjson');
    await cliCheckedJson(['fork', parent, '--at', String(AT), '--intervene', file, '--out', child]);
    const d = (await cliCheckedJson(['diff', parent, child])) as {
      identical: boolean;
      first: { seq: number; tick: number; a: { type: string } | null; b: { type: string } | null };
      metrics: Record<string, { a: number; b: number; delta: number; firstTick: number | null }>;
      agents: { differing: number; sample: unknown[] };
    };
    const until = endOfTickIndex(parsed(parent), AT);
    expect(d.identical).toBe(false);
    expect(d.first.seq).toBe(until + 1);
    expect(d.first.b?.type).toBe('intervene');
    // the tick named is the parent's line at that seq (the first tick after the fork)
    expect([AT, AT + 1]).toContain(d.first.tick);
    const fa = finalMetrics(parent);
    const fb = finalMetrics(child);
    for (const [k, m] of Object.entries(d.metrics)) {
      expect(m).toMatchObject({ a: fa[k], b: fb[k], delta: fb[k] - fa[k] });
      if (m.firstTick !== null) expect(m.firstTick).toBeGreaterThan(AT);
    }
    expect(Object.values(d.metrics).some((m) => m.firstTick !== null)).toBe(true);
    expect(d.agents.differing).toBeGreaterThan(0);
    const text = await cliChecked(['diff', parent, child]);
    expect(text.stdout).toContain(`first difference at seq ${until + 1}`);
  });

  it('parent vs a fork without intervention: identical', async () => {
    const same = join(dir, 'same.ndjson');
    await cliCheckedJson(['fork', parent, '--at', '15', '--out', same]);
    const d = await cliCheckedJson(['diff', parent, same]);
    expect(d).toMatchObject({ identical: true, first: null, agents: { differing: 0 } });
    for (const m of Object.values(d.metrics as Record<string, { firstTick: number | null; delta: number }>))
      expect(m).toMatchObject({ firstTick: null, delta: 0 });
  });
});
