import { runWorld, type WorldDefinition } from '../../src/index.ts';
import { judgeMean, type ValidationCase } from '../../src/public/analysis.ts';
import { giantFraction } from '../rumor/theory.ts';
import { world as epidemicWorld } from './index.ts';
import { perEdgeFinalSize } from './theory.ts';

const GAMMA = 0.25;
const CONTACT = 0.75;

function sirCase(world: WorldDefinition, r0: number, n: number, quick: boolean): ValidationCase {
  const beta = (r0 * GAMMA) / CONTACT;
  return {
    id: `sir-well-mixed-r0-${r0}`,
    model: 'SIR (Kermack–McKendrick 1927)',
    setting:
      r0 > 1
        ? `well-mixed, n=${n}, async, R0=${r0}, 1 infected: final size of outbreaks reaching > √n agents`
        : `well-mixed, n=${n}, async, R0=${r0}, 1 infected: final size`,
    source: 'Kermack & McKendrick 1927, Proc. R. Soc. A 115:700 (z = 1 − e^(−R0·z))',
    quick,
    async run({ seed, replicates }) {
      const params = {
        model: 'sir',
        n,
        network: 'complete',
        contactRate: CONTACT,
        gamma: GAMMA,
        beta,
        initial: 1,
      };
      const observed: number[] = [];
      for (let k = 0; observed.length < replicates && k < replicates * 6; k++) {
        const r = await runWorld(world, { params, seed: seed * 1000 + k, ticks: 100_000 });
        const z = r.metrics.recovered / r.size;
        if (r0 <= 1 || z * n > Math.sqrt(n)) observed.push(z);
      }
      return judgeMean(giantFraction(r0), observed, n);
    },
  };
}

/**
 * Per-edge SIR on Erdős–Rényi (every S–I edge at rate τ, recovery at rate γ): the final size
 * of a large outbreak is the giant component of bond percolation with T = τ/(τ+γ).
 */
function perEdgeCase(world: WorldDefinition, n: number, quick: boolean): ValidationCase {
  const c = 5;
  const rates = { tau: 2 / 3, gamma: 1 };
  return {
    id: 'sir-per-edge-erdos-renyi',
    model: 'SIR, per-edge transmission (network epidemiology)',
    setting: `Erdős–Rényi, n=${n}, c=${c}, τ=2/3, γ=1 (T = 0.4), 1 infected: final size of outbreaks reaching > 10√n agents`,
    source: 'bond percolation (Newman 2002, Phys. Rev. E 66:016128; Kiss, Miller & Simon 2017)',
    quick,
    async run({ seed, replicates }) {
      const params = {
        model: 'sir',
        transmission: 'per-edge',
        network: 'erdos-renyi',
        n,
        k: c,
        ...rates,
        initial: 1,
      };
      const observed: number[] = [];
      for (let k = 0; observed.length < replicates && k < replicates * 6; k++) {
        const r = await runWorld(world, { params, seed: seed * 1000 + k, ticks: 100_000 });
        const z = r.metrics.recovered / r.size;
        if (z * n > 10 * Math.sqrt(n)) observed.push(z);
      }
      return judgeMean(perEdgeFinalSize(c, rates), observed, n);
    },
  };
}

/** The epidemic world's validation cases; `world` may be a variant (tests break it on purpose). */
export function epidemicValidationCases(world: WorldDefinition = epidemicWorld): ValidationCase[] {
  return [
    sirCase(world, 0.5, 3000, true),
    sirCase(world, 1.5, 3000, true),
    sirCase(world, 2.5, 3000, true),
    perEdgeCase(world, 3000, true),
  ];
}
