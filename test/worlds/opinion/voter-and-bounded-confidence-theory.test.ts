import { describe, expect, it } from 'vitest';
import type { Topology } from '../../../src/index.ts';
import { hegselmannKrause } from '../../../worlds/opinion/hk-reference.ts';
import { deffuantClusters, degreeWeightedShare, inverseDegreeShare } from '../../../worlds/opinion/theory.ts';
import { hegselmannKrauseWindow } from '../../validate/references/opinion-reference.ts';
import { ReferenceRng } from '../../validate/references/reference-rng.ts';

/** A star with a hub (agent 0) and `leaves` leaves: only sizes and degrees are read. */
function star(leaves: number): Topology {
  return { size: leaves + 1, degree: (i: number) => (i === 0 ? leaves : 1) } as unknown as Topology;
}

describe('voter winning probabilities on a heterogeneous network (by hand)', () => {
  it('on a star with 4 leaves and only the hub holding opinion 1: 4/8 when agents copy, (1/4)/(1/4 + 4) when they impose', () => {
    const x = [1, 0, 0, 0, 0];
    // Sood & Redner 2005: Σd_i·x_i/Σd_i = 4/8; Sood, Antal & Redner 2008: Σx_i/d_i / Σ1/d_i = 0.25/4.25
    expect(degreeWeightedShare(star(4), x)).toBeCloseTo(0.5, 15);
    expect(inverseDegreeShare(star(4), x)).toBeCloseTo(0.25 / 4.25, 15);
  });

  it('on a regular network both are the plain share', () => {
    const ring = { size: 6, degree: () => 2 } as unknown as Topology;
    const x = [1, 1, 0, 0, 0, 0];
    expect(degreeWeightedShare(ring, x)).toBeCloseTo(1 / 3, 15);
    expect(inverseDegreeShare(ring, x)).toBeCloseTo(1 / 3, 15);
  });
});

describe('deffuantClusters: ⌊1/(2ε)⌋ major clusters (Deffuant et al. 2000)', () => {
  it('2 at ε = 0.2, 3 at ε = 0.15, 1 at ε = 0.3 and above 0.5', () => {
    expect(deffuantClusters(0.2)).toBe(2);
    expect(deffuantClusters(0.15)).toBe(3);
    expect(deffuantClusters(0.3)).toBe(1);
    expect(deffuantClusters(0.6)).toBe(1);
  });
});

describe('hegselmannKrause (worlds/opinion/hk-reference.ts)', () => {
  it('a hand example: [0, 0.1, 0.5, 0.55, 1] at ε = 0.2 settles in two steps at 0.05, 0.05, 0.525, 0.525, 1', () => {
    const r = hegselmannKrause([0, 0.1, 0.5, 0.55, 1], 0.2, 1e-9, 100);
    for (const [i, v] of [0.05, 0.05, 0.525, 0.525, 1].entries()) expect(r.x[i]).toBeCloseTo(v, 15);
    expect(r.steps).toBe(2);
  });

  it('agrees with the tests’ sliding-window HK on random starts, and counts ε inclusively', () => {
    const rng = new ReferenceRng(3);
    for (let rep = 0; rep < 5; rep++) {
      const x0 = Array.from({ length: 150 }, () => rng.next());
      const a = hegselmannKrause(x0, 0.2, 1e-9, 1000).x;
      const b = hegselmannKrauseWindow(x0, 0.2, 1e-9, 1000);
      expect(Math.max(...a.map((v, i) => Math.abs(v - b[i])))).toBeLessThan(1e-12);
    }
    // exactly ε apart: inclusive bound, so the two meet in the middle
    expect(hegselmannKrause([0.25, 0.5], 0.25, 1e-9, 10).x).toEqual([0.375, 0.375]);
  });
});
