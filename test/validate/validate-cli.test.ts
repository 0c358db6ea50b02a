import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('grapevine validate (the built CLI)', () => {
  it('--perturb KEY=FACTOR exits 0 when every case that must detect it fails; --out gives per case the prediction, observed, band, runs used and qualified, the deviation, its power and the perturbation', async () => {
    const out = join(tempDir('validate-cli'), 'report.json');
    const r = await cli([
      'validate',
      '--only',
      'deffuant-weisbuch-clusters',
      '--perturb',
      'epsilon=0.75',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/detected/);
    expect(r.stdout).toMatch(/1\/1 cases that must detect the perturbation did/);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report).toMatchObject({ familyAlpha: 0.01, alphaPerCase: 0.01, passed: true, seed: 1 });
    const [c] = report.cases;
    // the band and plan stay the model's: the case fails, which is what the perturbation asks
    expect(c).toMatchObject({ id: 'deffuant-weisbuch-clusters', test: 'mean', predicted: 2, pass: false });
    for (const key of [
      'observed',
      'lo',
      'hi',
      'runs',
      'qualified',
      'replicates',
      'attempts',
      'power',
      'needed',
    ])
      expect(typeof c[key], key).toBe('number');
    expect(c.observed < c.lo || c.observed > c.hi).toBe(true);
    expect(c.deviation.label).toMatch(/ε × 0.75/);
    expect(c.values).toHaveLength(c.qualified);
    expect(c.rule).toMatch(/Deffuant/);
    expect(c.perturbation).toMatchObject({ key: 'epsilon', factor: 0.75, mustDetect: true, detected: true });
    expect(c.perturbation.expectedPower).toBeGreaterThan(0.95);
  }, 300_000);

  it('--perturb refuses a key no case reads and a factor the world refuses, in one line, exit 2', async () => {
    for (const args of [
      ['--perturb', 'nothing=2'],
      ['--only', 'voter-exit-probability', '--perturb', 'share=5'],
    ]) {
      const r = await cli(['validate', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')[0]).toMatch(/perturb/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 300_000);
});
