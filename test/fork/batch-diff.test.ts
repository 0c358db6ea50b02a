// Counterfactual batches (`fork --replicates`) and `grapevine diff`: treated and control
// children paired by their future seeds, the paired analysis of their differences (or the
// unpaired one when they do not share seeds), and the first difference between two runs. The commands run in this process (cliChecked, one
// after the other, nothing left open): what is checked is what they write and print, and a
// process start costs ~0.3 CPU-s; fork-own-future.test.ts runs fork in real processes.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliChecked, cliCheckedJson } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { endOfTickIndex, expectForkOf, type Line, parsed, verifyInProcess, write } from './helpers.ts';

const dir = tempDir('fork-batch');
const parent = join(dir, 'parent.ndjson');
const AT = 10;
let parentRun: Record<string, unknown>;

function finalMetrics(path: string): Record<string, number> {
  const ticks = parsed(path).filter((l) => l.type === 'tick');
  return (ticks.at(-1) as Line & { metrics: Record<string, number> }).metrics;
}

function interventions(path: string): unknown[] {
  return parsed(path)
    .filter((l) => l.type === 'intervene')
    .map((l) => (l as Line & { intervention: unknown }).intervention);
}

/** t(0.975, 2) (scipy.stats.t.ppf(0.975, 2); R qt(0.975, 2)): the interval of 3 pairs or 3 runs. */
const T975_2 = 4.302652729749462;

/** Mean and Student t 95% interval of 3 values, computed here from the definition. */
function interval3(xs: number[]): { mean: number; lo: number; hi: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  const h = (T975_2 * sd) / Math.sqrt(xs.length);
  return { mean, lo: mean - h, hi: mean + h };
}

/** The seed a child's fork set for its future: its logged reseed intervention. */
function futureSeed(path: string): number {
  return (interventions(path).find((iv) => (iv as { type: string }).type === 'reseed') as { seed: number })
    .seed;
}

interface Arm {
  n: number;
  mean: number;
  lo: number;
  hi: number;
}

interface BatchDiff {
  paired: boolean;
  pairs?: number;
  seeds?: number[];
  unpaired?: string;
  control: number;
  treated: number;
  outcomes: {
    outcome: string;
    constant: number | null;
    control: Arm;
    treated: Arm;
    effect: {
      mean: number;
      paired?: { lo: number; hi: number };
      signFlip?: { lo: number; hi: number; exact: boolean; flips: number };
      correlation?: number;
      varianceRatio?: number;
      differences?: number[];
      welch?: { lo: number; hi: number };
    };
  }[];
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

  it('diff DIR --json: pairs by future seed, per-pair differences, the paired t interval', async () => {
    const d = (await cliCheckedJson(['diff', batch])) as unknown as BatchDiff;
    expect(d).toMatchObject({ paired: true, pairs: 3, control: 3, treated: 3 });
    const base = (parentRun.seed as number) * 1000;
    expect(d.seeds).toEqual([base + 1, base + 2, base + 3]);
    const keys = Object.keys(finalMetrics(join(batch, 'control-1.ndjson'))).sort();
    expect(d.outcomes.map((m) => m.outcome)).toEqual(['ticks', ...keys.map((k) => `metric.${k}`)]);
    // pair k: the treated and the control child whose logged reseed is base + k
    const byArm = (arm: string) =>
      new Map(report.children.filter((c) => c.arm === arm).map((c) => [futureSeed(c.log), c.log]));
    const [treated, control] = [byArm('treated'), byArm('control')];
    for (const m of d.outcomes.filter((o) => o.outcome.startsWith('metric.'))) {
      const key = m.outcome.slice(7);
      const c = (d.seeds as number[]).map((s) => finalMetrics(control.get(s) as string)[key]);
      const t = (d.seeds as number[]).map((s) => finalMetrics(treated.get(s) as string)[key]);
      const diffs = t.map((x, k) => x - c[k]);
      expect(m.control.mean).toBeCloseTo(interval3(c).mean, 9);
      expect(m.treated.mean).toBeCloseTo(interval3(t).mean, 9);
      if (m.constant !== null) {
        expect(new Set([...c, ...t])).toEqual(new Set([m.constant]));
        continue;
      }
      expect(m.effect.differences).toEqual(diffs);
      const want = interval3(diffs);
      expect(m.effect.mean).toBeCloseTo(want.mean, 9);
      expect(m.effect.paired?.lo).toBeCloseTo(want.lo, 6);
      expect(m.effect.paired?.hi).toBeCloseTo(want.hi, 6);
      // 3 pairs: 8 sign vectors, too few for a 95% sign-flip interval
      expect(m.effect.signFlip).toMatchObject({ exact: true, flips: 7 });
      expect(m.effect.welch).toBeUndefined();
    }
    // telling everyone the rumour makes everyone aware of it: a clear effect
    const aware = d.outcomes.find((m) => m.outcome === 'metric.rumor.aware')!;
    expect(aware.treated.mean).toBe(3000);
    expect(aware.effect.paired!.lo).toBeGreaterThan(0);
    const welch = (await cliCheckedJson(['diff', batch, '--welch'])) as unknown as BatchDiff;
    const w = welch.outcomes.find((m) => m.outcome === 'metric.rumor.aware')!;
    expect(w.effect.welch!.lo).toBeLessThan(w.effect.welch!.hi);
  });

  it('pairs children by the seeds and interventions their logs record, whatever their file names', async () => {
    const renamed = join(dir, 'renamed');
    mkdirSync(renamed);
    // swap the arms' names and shuffle the numbers: a file name says nothing
    report.children.forEach((c, k) => {
      copyFileSync(
        c.log,
        join(renamed, `${c.arm === 'treated' ? 'control' : 'treated'}-${(k * 7) % 11}.ndjson`),
      );
    });
    const original = (await cliCheckedJson(['diff', batch])) as unknown as BatchDiff;
    const moved = (await cliCheckedJson(['diff', renamed])) as unknown as BatchDiff;
    expect(moved.outcomes).toEqual(original.outcomes);
    expect(moved.seeds).toEqual(original.seeds);
  });

  it('prints the folder, the pairing and every number to 4 significant digits', async () => {
    const r = await cliChecked(['diff', batch]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/3 pairs of children of .*parent\.ndjson .*forked after tick 10/);
    expect(r.stdout).toContain('each pair shares its future seed');
    expect(r.stdout).toContain('paired t 95% CI');
    expect(r.stdout).not.toContain('Welch');
    // no floating-point noise: every decimal number has at most 4 significant digits
    for (const n of r.stdout.match(/-?\d+\.\d+(e-?\d+)?/g) ?? [])
      expect(n.replace(/^-?0\.0*|[.-]|e.*$/g, '').length, n).toBeLessThanOrEqual(4);
    expect((await cliChecked(['diff', batch, '--welch'])).stdout).toContain('Welch 95% CI');
  });
});

describe('children that do not share their future seeds', () => {
  it('are compared as two independent samples (Welch), and diff says why', async () => {
    const unpaired = join(dir, 'unpaired');
    mkdirSync(unpaired);
    const file = write(dir, 'tell-fact.yaml', 'type: message\nto: all\nkind: tell\nitem: fact\n');
    const forks = [
      ['t1', ['--intervene', file, '--seed', '41']],
      ['t2', ['--intervene', file, '--seed', '42']],
      ['c1', ['--seed', '43']],
      ['c2', ['--seed', '44']],
      ['c3', ['--seed', '45']],
    ] as const;
    for (const [name, extra] of forks)
      await cliCheckedJson([
        'fork',
        parent,
        '--at',
        String(AT),
        ...extra,
        '--out',
        join(unpaired, `${name}.ndjson`),
      ]);
    const d = (await cliCheckedJson(['diff', unpaired])) as unknown as BatchDiff;
    expect(d).toMatchObject({ paired: false, treated: 2, control: 3 });
    expect(d.unpaired).toContain('do not share their future seeds');
    for (const m of d.outcomes.filter((o) => o.constant === null)) {
      expect(m.effect.paired).toBeUndefined();
      expect(m.effect.welch!.lo).toBeLessThanOrEqual(m.effect.mean);
    }
    const text = await cliChecked(['diff', unpaired]);
    expect(text.stdout).toContain('analysed as two independent samples (Welch)');
    expect(text.stdout).toContain('Welch 95% CI');
  });
});

describe('folders diff refuses', () => {
  it('a fork at several ticks: one folder per tick, named in the hint', async () => {
    const multi = join(dir, 'multi');
    await cliCheckedJson([
      'fork',
      parent,
      '--at',
      '5,10',
      '--seed',
      '8',
      '--replicates',
      '2',
      '--out',
      multi,
    ]);
    const r = await cliChecked(['diff', multi]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds no logs of fork children');
    expect(r.stderr).toContain(`diff ${join(multi, 'at-10')}`);
  });

  it('children of two fork points in one folder', async () => {
    const mixed = join(dir, 'mixed');
    mkdirSync(mixed);
    for (const [at, seed] of [
      ['5', '51'],
      ['10', '52'],
    ])
      await cliCheckedJson([
        'fork',
        parent,
        '--at',
        at,
        '--seed',
        seed,
        '--out',
        join(mixed, `at${at}.ndjson`),
      ]);
    const r = await cliChecked(['diff', mixed]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds children of 2 fork points');
  });
});

describe('a fork batch with common random numbers', () => {
  it('gives paired intervals no wider than Welch ones wherever the paired outcomes correlate positively', async () => {
    // the fact told to two agents at tick 10: the children of a pair share their random
    // numbers, so their final values move together (r near 1)
    const file = write(
      dir,
      'two.yaml',
      '- { type: message, to: { agent: 0 }, kind: tell, item: fact }\n- { type: message, to: { agent: 1 }, kind: tell, item: fact }\n',
    );
    const out = join(dir, 'crn');
    await cliCheckedJson([
      'fork',
      parent,
      '--at',
      String(AT),
      '--intervene',
      file,
      '--replicates',
      '12',
      '--out',
      out,
    ]);
    const d = (await cliCheckedJson(['diff', out, '--welch'])) as unknown as BatchDiff;
    expect(d.paired).toBe(true);
    const positive = d.outcomes.filter((m) => (m.effect.correlation ?? 0) > 0);
    expect(positive.length).toBeGreaterThan(3);
    for (const m of positive) {
      const paired = m.effect.paired!.hi - m.effect.paired!.lo;
      const welch = m.effect.welch!.hi - m.effect.welch!.lo;
      expect(paired, m.outcome).toBeLessThanOrEqual(welch);
      // the variance ratio is what pairing saved: var(d) / (var(c) + var(t)) < 1 when r > 0
      expect(m.effect.varianceRatio!, m.outcome).toBeLessThan(1);
    }
    // 12 pairs: all 4096 sign vectors
    expect(positive[0].effect.signFlip).toMatchObject({ exact: true, flips: 4095 });
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
