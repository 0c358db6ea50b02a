import { describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../src/core/index.ts';
import {
  batteryPassed,
  FAMILY_ALPHA,
  planCase,
  runBattery,
  type ValidationCase,
} from '../../src/public/analysis.ts';
import { builtinValidationCases } from '../../worlds/validation.ts';

const ALL = builtinValidationCases();

function plan(c: ValidationCase, quick: boolean) {
  const m = quick ? ALL.filter((x) => x.quick).length : ALL.length;
  return planCase(
    c.design(c.params),
    FAMILY_ALPHA / m,
    quick ? c.quickReplicates : c.maxReplicates,
    c.minReplicates,
  );
}

describe('the battery’s cases', () => {
  it('have unique ids, a source, a derivation and a deviation, and read only numeric parameters they set', () => {
    expect(new Set(ALL.map((c) => c.id)).size).toBe(ALL.length);
    for (const c of ALL) {
      const d = c.design(c.params);
      expect(c.source.length, c.id).toBeGreaterThan(20);
      expect(d.rule.length, c.id).toBeGreaterThan(40);
      expect(d.deviation.label.length, c.id).toBeGreaterThan(3);
      for (const k of c.reads) expect(typeof c.params[k], `${c.id} reads ${k}`).toBe('number');
    }
  });

  it('every case of the full battery reaches 95% power at its stated deviation within its budget', () => {
    const short = ALL.map((c) => ({ id: c.id, p: plan(c, false) })).filter((x) => x.p.power < 0.95);
    expect(
      short.map((x) => `${x.id}: power ${x.p.power} with ${x.p.replicates} (needs ${x.p.needed})`),
    ).toEqual([]);
  });

  it('the quick battery states its own (lower) power', () => {
    const quick = ALL.filter((c) => c.quick).map((c) => plan(c, true).power);
    expect(quick.some((p) => p < 0.95)).toBe(true);
    expect(quick.every((p) => p >= 0 && p <= 1)).toBe(true);
  });

  it('has the rival-rule cases the issue asks for', () => {
    const ids = ALL.map((c) => c.id);
    for (const id of [
      'watts-cascade-size-er-z4',
      'voter-degree-weighted',
      'daley-kendall-exact-n10',
      'sir-early-growth',
      'sir-epidemic-centre',
      'sir-per-edge-er',
      'deffuant-weisbuch-clusters',
      'hegselmann-krause-reference',
    ])
      expect(ids).toContain(id);
    const watts = ALL.find((c) => c.id === 'watts-cascade-size-er-z4')!;
    expect(plan(watts, true).replicates).toBeGreaterThanOrEqual(100);
  });
});

describe('grapevine validate --quick', () => {
  it('every quick case of the built-in worlds passes at seed 1, each reported with its prediction, band, runs and power', async () => {
    const rows = await runBattery(ALL, { quick: true });
    expect(rows.length).toBe(ALL.filter((c) => c.quick).length);
    expect(
      rows.filter((r) => !r.pass).map((r) => `${r.id}: ${r.observed} not in [${r.lo}, ${r.hi}]: ${r.reason}`),
    ).toEqual([]);
    expect(batteryPassed(rows)).toBe(true);
    for (const r of rows) {
      expect(r.alpha).toBeCloseTo(FAMILY_ALPHA / rows.length, 15);
      expect(Number.isFinite(r.lo) && Number.isFinite(r.hi) && r.lo <= r.hi, r.id).toBe(true);
      expect(r.qualified).toBe(r.replicates);
      expect(r.runs).toBeGreaterThanOrEqual(r.qualified);
      expect(r.runs).toBeLessThanOrEqual(r.attempts);
      expect(r.values).toHaveLength(r.qualified);
      expect(r.power).toBeGreaterThan(0);
    }
  }, 600_000);
});

// a perturbation that a case must detect, through the CLI with its report: test/validate/validate-cli.test.ts
describe('--perturb', () => {
  it('a change too small to see is not required to be seen', async () => {
    const rows = await runBattery(ALL, {
      only: 'deffuant-weisbuch-clusters',
      perturb: { key: 'epsilon', factor: 1.01 },
    });
    expect(rows[0].perturbation!.mustDetect).toBe(false);
    expect(rows[0].perturbation!.detected).toBe(false);
    expect(batteryPassed(rows)).toBe(true);
  }, 300_000);

  it('refuses a key no case reads, and a factor the world does not accept, before any run', async () => {
    await expect(runBattery(ALL, { perturb: { key: 'nothing', factor: 2 } })).rejects.toThrow(ConfigError);
    await expect(runBattery(ALL, { quick: true, perturb: { key: 'share', factor: 5 } })).rejects.toThrow(
      UsageError,
    );
  });
});
