// Per-edge transmission (each S–I edge at rate τ, recovery at rate γ): the theory the summary
// states for SIR on Erdős–Rényi, and the SIS pair approximation's closed form against the
// pairwise equations it comes from (integrated here, as EoN's SIS_homogeneous_pairwise states them).
import { describe, expect, it } from 'vitest';
import { runWorld, type WorldDefinition } from '../../../src/index.ts';
import { world } from '../../../worlds/epidemic/index.ts';
import {
  meanFieldPrevalence,
  pairApproximationPrevalence,
  perEdgeFinalSize,
} from '../../../worlds/epidemic/theory.ts';
import { giantFraction } from '../../../worlds/rumor/theory.ts';

const epidemic = world as unknown as WorldDefinition;

// Runs against bond percolation: the battery's case `sir-per-edge-er` (worlds/epidemic/per-edge-validation.ts,
// run by test/validate/battery.test.ts with a band planned in advance; a per-contact rule in
// its place fails it, test/validate/broken-epidemic.test.ts). Here: what the summary states.
describe('per-edge SIR on Erdős–Rényi', () => {
  it('the summary gives the giant component of bond percolation with T = τ/(τ+γ)', async () => {
    const params = {
      model: 'sir',
      transmission: 'per-edge',
      network: 'erdos-renyi',
      n: 300,
      k: 5,
      tau: 2 / 3,
      gamma: 1,
      initial: 1,
    };
    // T = 0.4, c·T = 2: z = 1 − e^(−2z) ≈ 0.797
    const predicted = perEdgeFinalSize(5, { tau: 2 / 3, gamma: 1 });
    expect(predicted).toBeCloseTo(giantFraction(2), 12);
    const r = await runWorld(epidemic, { params, seed: 1, ticks: 10_000 });
    expect(r.summary.theory).toMatchObject({ finalSize: predicted, transmissibility: 0.4 });
  });
});

/** The homogeneous pairwise SIS equations (Keeling 1999), per node: s, [SI]/N, [SS]/N. */
function pairwiseSteadyState(n: number, tau: number, gamma: number, i0: number): number {
  const k = (n - 1) / n;
  // a random start: [SI] = n·s·i, [SS] = n·s²
  let y = [1 - i0, n * (1 - i0) * i0, n * (1 - i0) ** 2];
  const f = ([s, si, ss]: number[]) => {
    const i = 1 - s;
    const ii = n - ss - 2 * si;
    return [
      gamma * i - tau * si,
      gamma * (ii - si) + (tau * k * si * (ss - si)) / s - tau * si,
      2 * gamma * si - (2 * tau * k * si * ss) / s,
    ];
  };
  const h = 0.05;
  for (let step = 0; step < 40_000; step++) {
    const a = f(y);
    const b = f(y.map((v, j) => v + (h / 2) * a[j]));
    const c = f(y.map((v, j) => v + (h / 2) * b[j]));
    const d = f(y.map((v, j) => v + h * c[j]));
    y = y.map((v, j) => v + (h / 6) * (a[j] + 2 * b[j] + 2 * c[j] + d[j]));
  }
  return 1 - y[0];
}

describe('SIS theory in the summary', () => {
  it('the pair-approximation prevalence is the steady state of the pairwise equations', () => {
    for (const [n, tau, gamma] of [
      [10, 0.2, 1],
      [5, 0.5, 1],
      [20, 0.1, 0.5],
    ])
      expect(pairApproximationPrevalence(n, tau, gamma)).toBeCloseTo(
        pairwiseSteadyState(n, tau, gamma, 0.05),
        6,
      );
    // below the pairwise threshold τ(n−1) > γ there is no endemic state
    expect(pairApproximationPrevalence(10, 0.1, 1)).toBe(0);
    expect(pairwiseSteadyState(10, 0.1, 1, 0.05)).toBeLessThan(1e-3);
  });

  it('mean field: 1 − γ/(τc); the summary names both approximations', async () => {
    expect(meanFieldPrevalence(10, 0.2, 1)).toBeCloseTo(0.5, 12);
    expect(meanFieldPrevalence(10, 0.05, 1)).toBe(0);
    const r = await runWorld(epidemic, {
      params: {
        model: 'sis',
        transmission: 'per-edge',
        network: 'erdos-renyi',
        n: 500,
        k: 10,
        tau: 0.2,
        gamma: 1,
        initial: 200,
      },
      seed: 1,
      ticks: 5,
    });
    expect(r.summary.theory).toMatchObject({
      endemicMeanField: 0.5,
      endemicPairApproximation: pairApproximationPrevalence(10, 0.2, 1),
    });
  });
});
