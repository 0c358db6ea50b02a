// Validation cases a user adds to their own world file (test/support/user-sir-world.ts), in
// the form the built-in worlds contribute theirs: `grapevine validate --world FILE` runs them.
import { USER_SIR_WORLD } from './user-sir-world.ts';

/**
 * The user's SIR world followed by its own `validationCases` export: with no transmission
 * (beta = 0) a run lasts as long as the longest of the 4 initial infectious periods, each
 * geometric with recovery chance gamma per tick, so its duration T has P(T ≤ t) = (1 − (1 − γ)^t)^4.
 * The user computes the law's mean, sd and skewness, states the deviation the case must detect
 * (a 10% error in gamma), and lets the battery plan the runs and the band.
 */
export const USER_SIR_VALIDATION = `${USER_SIR_WORLD}
import { type CaseDesign, collectReplicates, type ValidationCase } from 'grapevine/analysis';

/** Mean, sd and skewness of the longest of 4 geometric infectious periods (ticks). */
function durationLaw(gamma: number): { mean: number; sd: number; skewness: number } {
  let m1 = 0;
  let m2 = 0;
  let m3 = 0;
  for (let t = 0; t < 100_000; t++) {
    const tail = 1 - (1 - (1 - gamma) ** t) ** 4; // P(T > t)
    if (tail < 1e-16) break;
    m1 += tail;
    m2 += (2 * t + 1) * tail;
    m3 += (3 * t * t + 3 * t + 1) * tail;
  }
  const variance = m2 - m1 * m1;
  const skewness = (m3 - 3 * m1 * variance - m1 ** 3) / variance ** 1.5;
  return { mean: m1, sd: Math.sqrt(variance), skewness };
}

function durationDesign(p: Record<string, unknown>): CaseDesign {
  const gamma = p.gamma as number;
  const law = durationLaw(gamma);
  const slower = durationLaw(gamma * 0.9);
  return {
    test: 'mean',
    predicted: law.mean,
    sd: law.sd,
    skewness: law.skewness,
    bias: 0,
    rule: 'exact law of the maximum of 4 independent geometric(gamma) infectious periods',
    deviation: { label: 'gamma × 0.9 (a 10% error in the recovery chance)', mean: slower.mean, sd: slower.sd },
    qualify: 1,
  };
}

export const validationCases: ValidationCase[] = [
  {
    id: 'user-sir-recovery-duration',
    model: 'SIR recovery (geometric infectious periods)',
    setting: 'ring lattice, n = 40, beta = 0, 4 infected: ticks until none is infected',
    source: 'P(T ≤ t) = (1 − (1 − gamma)^t)^4, the maximum of 4 geometric periods',
    quick: true,
    world,
    params: { n: 40, k: 6, beta: 0, gamma: 0.2 },
    reads: ['gamma'],
    design: durationDesign,
    maxReplicates: 2000,
    quickReplicates: 2000,
    run: (ctx) =>
      collectReplicates(ctx, async (k) => {
        const r = await ctx.run(k, { ticks: 100_000 });
        return r.reason === 'extinct' ? { value: r.ticks } : null;
      }),
  },
];
`;
