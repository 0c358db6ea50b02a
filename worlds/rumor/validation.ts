import { runWorld, type WorldDefinition } from '../../src/index.ts';
import { judgeFrequency, judgeMean, type ValidationCase } from '../../src/public/analysis.ts';
import { world as rumorWorld } from './index.ts';
import { giantFraction, neverHeardLimit, wattsCascadeRatio } from './theory.ts';

type Params = Record<string, unknown>;

/** The rumour's final reach in one run: the fraction who heard it, or (`adopted`) who took it up. */
async function reach(world: WorldDefinition, params: Params, seed: number, adopted = false): Promise<number> {
  // 200 time units: the classic runs end by about 40; a model that never stops is cut off there
  const r = await runWorld(world, { params, seed, ticks: 200 });
  const m = r.metrics;
  return adopted ? (m['rumor.spreader'] + m['rumor.stifler']) / r.size : m['rumor.aware'] / r.size;
}

async function replicate(
  world: WorldDefinition,
  params: Params,
  seed: number,
  r: number,
  adopted = false,
): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < r; k++) out.push(await reach(world, params, seed * 1000 + k, adopted));
  return out;
}

const ONE_SPREADER = { spreaders: 1, insiders: 0, factBlocksRumor: false };

function pairwiseCase(
  world: WorldDefinition,
  model: 'maki-thompson' | 'daley-kendall',
  n: number,
  quick: boolean,
): ValidationCase {
  const name = model === 'maki-thompson' ? 'Maki–Thompson (1973)' : 'Daley–Kendall (1965)';
  return {
    id: `${model}-well-mixed${quick ? '' : '-20k'}`,
    model: name,
    setting: `well-mixed, n=${n}, async, 1 spreader: fraction never hearing`,
    source:
      model === 'maki-thompson'
        ? 'Sudbury 1985, J. Appl. Prob. 22:443 (θ = e^(−2(1−θ)))'
        : 'Daley & Kendall 1965, J. Inst. Maths Applics 1:42 (same limit)',
    quick,
    async run({ seed, replicates }) {
      const p = { model, n, network: 'complete', turns: 'async', ...ONE_SPREADER };
      const observed = (await replicate(world, p, seed, replicates)).map((x) => 1 - x);
      return judgeMean(neverHeardLimit(), observed, n);
    },
  };
}

/** Independent cascade on G(n, c/n) from one seed: giant-cascade size among the runs that took off. */
function cascadeCase(
  world: WorldDefinition,
  n: number,
  c: number,
  p: number,
  quick: boolean,
): ValidationCase {
  const m = p * c;
  return {
    id: `independent-cascade-er-pc${m}`,
    model: 'Independent cascade (Kempe, Kleinberg & Tardos 2003)',
    setting:
      m > 1
        ? `ER G(n, c/n), n=${n}, c=${c}, p=${p}: adopters in cascades reaching > √n agents`
        : `ER G(n, c/n), n=${n}, c=${c}, p=${p} (p·c < 1): cascade size`,
    source: 'bond percolation on G(n, c/n): S = 1 − e^(−p·c·S) (Newman 2002, Phys. Rev. E 66:016128)',
    quick,
    async run({ seed, replicates }) {
      const params = { model: 'independent-cascade', network: 'erdos-renyi', n, k: c, p, ...ONE_SPREADER };
      const observed: number[] = [];
      // above threshold, only cascades that took off (more than √n agents) estimate S
      for (let k = 0; observed.length < replicates && k < replicates * 6; k++) {
        const x = await reach(world, params, seed * 1000 + k, true);
        if (m <= 1 || x * n > Math.sqrt(n)) observed.push(x);
      }
      return judgeMean(giantFraction(m), observed, n);
    },
  };
}

/**
 * Probability that one random seed triggers a global cascade in the Watts model on a
 * Poisson(z) graph with one threshold φ: the seed has a neighbour through which the
 * vulnerable cluster percolates (u: an edge does not lead into it).
 */
export function wattsCascadeProbability(z: number, phi: number): number {
  if (wattsCascadeRatio(z, phi) <= 1) return 0;
  const kmax = Math.floor(1 / phi);
  let u = 0;
  for (let it = 0; it < 10_000; it++) {
    let next = 0;
    let q = Math.exp(-z);
    for (let k = 0; k < 200; k++) {
      if (k > 0) q *= z / k;
      next += q * (k + 1 <= kmax ? u ** k : 1);
    }
    if (Math.abs(next - u) < 1e-13) break;
    u = next;
  }
  return 1 - Math.exp(-z * (1 - u));
}

function wattsCase(
  world: WorldDefinition,
  n: number,
  z: number,
  phi: number,
  quick: boolean,
): ValidationCase {
  const inside = wattsCascadeRatio(z, phi) > 1;
  return {
    id: `watts-threshold-er-z${z}`,
    model: 'Watts threshold model (2002)',
    setting: `ER, n=${n}, z=${z}, φ=${phi}, 1 seed (${inside ? 'inside' : 'outside'} the cascade window): frequency of cascades > 10% of n`,
    source: 'Watts 2002, PNAS 99:5766 (cascade condition and window)',
    quick,
    async run({ seed, replicates }) {
      const params = { model: 'watts-threshold', network: 'erdos-renyi', n, k: z, phi, ...ONE_SPREADER };
      const sizes = await replicate(world, params, seed, replicates * 2, true);
      return judgeFrequency(
        wattsCascadeProbability(z, phi),
        sizes.map((x) => (x > 0.1 ? 1 : 0)),
        n,
      );
    },
  };
}

/** The rumour world's validation cases; `world` may be a variant (tests break it on purpose). */
export function rumorValidationCases(world: WorldDefinition = rumorWorld): ValidationCase[] {
  return [
    pairwiseCase(world, 'maki-thompson', 5000, true),
    pairwiseCase(world, 'daley-kendall', 5000, true),
    pairwiseCase(world, 'maki-thompson', 20_000, false),
    pairwiseCase(world, 'daley-kendall', 20_000, false),
    cascadeCase(world, 5000, 4, 0.5, true),
    cascadeCase(world, 5000, 4, 0.2, true),
    ...[0.5, 2, 4, 10].map((z) => wattsCase(world, 5000, z, 0.18, true)),
  ];
}
