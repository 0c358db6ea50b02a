import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';

describe('grapevine validate (the built CLI)', () => {
  it('--json reports per case the prediction, observed, band, runs used and qualified, the deviation and its power', async () => {
    const r = await cli(['validate', '--only', 'deffuant-weisbuch-clusters', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ familyAlpha: 0.01, alphaPerCase: 0.01, passed: true, seed: 1 });
    const [c] = report.cases;
    expect(c).toMatchObject({ id: 'deffuant-weisbuch-clusters', test: 'mean', predicted: 2, pass: true });
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
    expect(c.deviation.label).toMatch(/ε × 0.75/);
    expect(c.values).toHaveLength(c.qualified);
    expect(c.rule).toMatch(/Deffuant/);
  }, 300_000);

  it('--perturb KEY=FACTOR exits 0 when every case that must detect it fails', async () => {
    const r = await cli(['validate', '--only', 'deffuant-weisbuch-clusters', '--perturb', 'epsilon=0.75']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/detected/);
    expect(r.stdout).toMatch(/1\/1 cases that must detect the perturbation did/);
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
