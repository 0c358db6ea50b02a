import type { Json, WorldDefinition } from '../../src/index.ts';
import { type CaseDesign, collectReplicates, type ValidationCase } from '../../src/public/analysis.ts';
import { giantComponentVariance, giantFraction } from '../rumor/theory.ts';
import { perEdgeMajorProbability, transmissibility } from './theory.ts';

const num = (p: Record<string, Json>, k: string) => p[k] as number;

/**
 * Ratio of the variance of a major outbreak's final size to the giant-component variance of
 * G(n, c·T/n) (Pittel 1990) at the case's parameters. Bond percolation with independent
 * edges would give 1; here the edges out of one agent share its infectious period, which
 * widens the spread. Fixed from the independent reference (test/validate/references/,
 * bench/validate-references.ts: 20000 epidemic-percolation runs on G(5000, 4/n), τ = γ = 1,
 * measured ratio 1.280 ± 0.016) with a margin, since no published central limit theorem for this
 * setting gives it in closed form.
 */
const VARIANCE_RATIO = 1.4;

/** Bias budget of the mean at n = 5000 (the reference: 0.79692 ± 0.00010 against S = 0.79681). */
const BIAS = 0.003;

/** Final size (fraction) of major outbreaks and its per-run sd under the case's sd rule. */
function perEdgeLaw(n: number, c: number, tau: number, gamma: number): { mean: number; sd: number } {
  const m = c * transmissibility({ tau, gamma });
  return { mean: giantFraction(m), sd: Math.sqrt((VARIANCE_RATIO * giantComponentVariance(m)) / n) };
}

function perEdgeDesign(p: Record<string, Json>): CaseDesign {
  const [n, c, tau, gamma] = [num(p, 'n'), num(p, 'k'), num(p, 'tau'), num(p, 'gamma')];
  const base = perEdgeLaw(n, c, tau, gamma);
  const slow = perEdgeLaw(n, c, 0.95 * tau, gamma);
  const major = perEdgeMajorProbability(c, tau, gamma);
  return {
    test: 'mean',
    predicted: base.mean,
    sd: base.sd,
    bias: BIAS,
    rule:
      `S = 1 − e^(−cT·S) with T = τ/(τ+γ) (bond percolation on G(n, c/n)); per-run sd √(${VARIANCE_RATIO}·S(1−S)/n)/(1 − cT(1−S)): ` +
      `the giant-component CLT widened by the shared infectious period (variance ratio measured 1.28 by an independent epidemic-percolation reference, fixed at ${VARIANCE_RATIO}); ` +
      `bias budget ${BIAS} at n = 5000 (reference: +0.0001). Runs qualify with at least n/10 infected: ` +
      `probability ${major.toFixed(4)} as n → ∞ (out-component of the epidemic percolation network; reference at n = 5000: 0.633), planned as ${Math.max(0.01, major - 0.05).toFixed(4)}.`,
    deviation: { label: 'τ × 0.95 (a 5% error in the transmission rate)', mean: slow.mean, sd: slow.sd },
    qualify: Math.max(0.01, major - 0.05),
    valueRange: [0, 1],
  };
}

/**
 * Per-edge SIR on Erdős–Rényi against bond percolation: the final size of major outbreaks.
 * Per contact at the same mean rate (an agent's contacts not scaling with its degree) ends
 * at 0.72 instead of 0.80, so the case tells the two transmission rules apart.
 */
export function perEdgeCase(world: WorldDefinition): ValidationCase {
  const params = {
    model: 'sir',
    transmission: 'per-edge',
    network: 'erdos-renyi',
    n: 5000,
    k: 4,
    tau: 1,
    gamma: 1,
    initial: 1,
  };
  // fixed from the case's own parameters, so that a perturbed model is judged on the same statistic
  const from = Math.ceil(params.n / 10);
  return {
    id: 'sir-per-edge-er',
    model: 'SIR with per-edge transmission (network SIR, Markovian)',
    setting:
      'ER G(n, c/n), n=5000, c=4, each S–I edge transmits at rate τ=1, recovery γ=1 (T = 1/2, cT = 2), async, 1 infected: final size of major outbreaks (≥ n/10)',
    source:
      'bond percolation with transmissibility T = τ/(τ+γ): the giant of G(n, cT/n), S = 1 − e^(−cT·S) (Newman 2002, Phys. Rev. E 66:016128; Kenah & Robins 2007, Phys. Rev. E 76:036113; Kiss, Miller & Simon 2017, Mathematics of Epidemics on Networks, ch. 6)',
    quick: true,
    world,
    params,
    reads: ['tau', 'gamma', 'k', 'n'],
    design: perEdgeDesign,
    // 50 replicates reach 95% power at τ × 0.95; the quick battery affords the same (about 75 runs)
    maxReplicates: 200,
    quickReplicates: 50,
    minReplicates: 20,
    run: (ctx) =>
      collectReplicates(ctx, async (k) => {
        const r = await ctx.run(k, { ticks: 10_000 });
        const z = r.metrics.recovered;
        return z >= from ? { value: z / r.size } : null;
      }),
  };
}
