import { describe, expect, it } from 'vitest';
import type { CaseDesign } from '../../src/public/analysis.ts';
import { builtinValidationCases } from '../../worlds/validation.ts';
import { deffuantReference, majorGroups } from './references/opinion-reference.ts';
import {
  gnp,
  percolatedComponent,
  perEdgeSirFinalSize,
  wattsCascade,
} from './references/random-graph-reference.ts';
import { meanSd, ReferenceRng } from './references/reference-rng.ts';
import { sirGillespie } from './references/sir-reference.ts';

// Some cases fix a per-run sd or a bias budget in their definition, measured once with these
// independent reference simulations (bench/validate-references.ts, tens of thousands of runs).
// Here the same references run again on fewer runs: the case's prediction must lie within its
// bias budget of the reference mean (allowing 3 standard errors of the reference), and the
// reference's spread must not exceed the sd the case fixed. The references share no code
// with the engine: their own PRNG, graphs, cascades and Gillespie SIR.

const CASES = builtinValidationCases();

function designOf(id: string): CaseDesign {
  const c = CASES.find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id}`);
  return c.design(c.params);
}

function expectCovered(d: CaseDesign, xs: number[], sdSlack = 1.1): void {
  const { mean, se, sd } = meanSd(xs);
  expect(Math.abs(mean - d.predicted), `mean ${mean} ± ${se} vs ${d.predicted}`).toBeLessThanOrEqual(
    d.bias + 3 * se,
  );
  expect(sd, `sd ${sd} vs fixed ${d.sd}`).toBeLessThanOrEqual(d.sd * sdSlack);
}

describe('fixed constants of the cases against independent reference simulations', () => {
  it('Watts cascade size on G(5000, z/n), φ = 0.18: z = 2 and z = 4', () => {
    for (const z of [2, 4]) {
      const rng = new ReferenceRng(101 + z);
      const sizes: number[] = [];
      let cascades = 0;
      const runs = 1500;
      for (let k = 0; k < runs; k++) {
        const s = wattsCascade(gnp(5000, z / 4999, rng), rng.int(5000), 0.18) / 5000;
        if (s > 0.1) {
          cascades++;
          sizes.push(s);
        }
      }
      expectCovered(designOf(`watts-cascade-size-er-z${z}`), sizes);
      const p = designOf(`watts-threshold-er-z${z}`);
      const se = Math.sqrt((p.predicted * (1 - p.predicted)) / runs);
      expect(Math.abs(cascades / runs - p.predicted)).toBeLessThanOrEqual(p.bias + 3 * se);
      expect(cascades / runs).toBeGreaterThanOrEqual(designOf(`watts-cascade-size-er-z${z}`).qualify);
    }
  }, 120_000);

  it('independent cascade on G(5000, 4/n): the giant at p = 0.5, the capped small cascade at p = 0.2', () => {
    const rng = new ReferenceRng(211);
    const giant: number[] = [];
    for (let k = 0; k < 300; k++) {
      const s = percolatedComponent(gnp(5000, 4 / 4999, rng), rng.int(5000), 0.5, rng);
      if (s > Math.sqrt(5000)) giant.push(s / 5000);
    }
    expectCovered(designOf('independent-cascade-er-pc2'), giant, 1.3);
    const small: number[] = [];
    for (let k = 0; k < 3000; k++)
      small.push(Math.min(100, percolatedComponent(gnp(5000, 4 / 4999, rng), rng.int(5000), 0.2, rng)));
    expectCovered(designOf('independent-cascade-er-pc0.8'), small);
  }, 120_000);

  it('per-edge SIR on G(5000, 4/n), τ = γ = 1: major outbreaks by epidemic percolation', () => {
    const rng = new ReferenceRng(223);
    const major: number[] = [];
    const runs = 600;
    for (let k = 0; k < runs; k++) {
      const s = perEdgeSirFinalSize(gnp(5000, 4 / 4999, rng), rng.int(5000), 1, 1, rng);
      if (s >= 500) major.push(s / 5000);
    }
    const d = designOf('sir-per-edge-er');
    expectCovered(d, major);
    expect(major.length / runs).toBeGreaterThanOrEqual(d.qualify);
  }, 120_000);

  it('the SIR time course: I(10)/I(0) at n = 10^4 and the centre of the prevalence curve at n = 2000', () => {
    const rng = new ReferenceRng(307);
    const early: number[] = [];
    for (let k = 0; k < 400; k++) early.push(sirGillespie(10_000, 0.4, 0.2, 100, 10, rng)[10] / 100);
    expectCovered(designOf('sir-early-growth'), early, 1);
    const centre: number[] = [];
    for (let k = 0; k < 400; k++) {
      const curve = sirGillespie(2000, 0.4, 0.2, 40, 400, rng);
      let num = 0;
      let den = 0;
      for (let t = 1; t < curve.length; t++) {
        num += t * curve[t];
        den += curve[t];
      }
      centre.push(num / den);
    }
    expectCovered(designOf('sir-epidemic-centre'), centre, 1);
  }, 120_000);

  it('Deffuant–Weisbuch major clusters at n = 200, ε = 0.2', () => {
    const rng = new ReferenceRng(401);
    const xs: number[] = [];
    for (let k = 0; k < 200; k++)
      xs.push(majorGroups(deffuantReference(200, 0.2, 0.5, 1e-3, rng), 0.01, 0.1));
    expectCovered(designOf('deffuant-weisbuch-clusters'), xs, 1);
  }, 120_000);
});
