import { runWorld, type WorldDefinition } from '../../src/index.ts';
import { judgeMean, type ValidationCase } from '../../src/public/analysis.ts';
import { giantFraction } from '../rumor/theory.ts';
import { world as epidemicWorld } from './index.ts';

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

/** The epidemic world's validation cases; `world` may be a variant (tests break it on purpose). */
export function epidemicValidationCases(world: WorldDefinition = epidemicWorld): ValidationCase[] {
  return [sirCase(world, 0.5, 3000, true), sirCase(world, 1.5, 3000, true), sirCase(world, 2.5, 3000, true)];
}
