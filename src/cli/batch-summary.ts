import { canonicalJson, type Json } from '../core/index.ts';
import type { ForkBatch, OutcomeEffect } from '../metrics/index.ts';
import type { MeanCi, WelchTTestResult } from '../stats/index.ts';

/** An arm's summary for JSON. */
const arm = (m: MeanCi) => ({ n: m.n, mean: m.mean, sd: m.sd, lo: m.lo, hi: m.hi });
const welchJson = (w: WelchTTestResult) => ({ lo: w.lo, hi: w.hi, se: w.se, df: w.df, t: w.t, p: w.p });

/** Consecutive seeds as a range (`7001–7020`), others as a short list. */
export function describeSeeds(seeds: readonly number[]): string {
  const s = [...new Set(seeds)].sort((a, b) => a - b);
  if (s.length === 0) return 'none';
  if (s.length > 2 && s.every((x, k) => k === 0 || x === s[k - 1] + 1)) return `${s[0]}–${s.at(-1)}`;
  return s.length <= 6 ? s.join(', ') : `${s.slice(0, 5).join(', ')}, … (${s.length} seeds)`;
}

/** The treatment in one line: each intervention's type and its other fields, cut at `max` characters. */
export function describeTreatment(ivs: readonly Json[], max = 160): string {
  const text = ivs
    .map((iv) => {
      const { type, ...rest } = iv as Record<string, Json>;
      return `${String(type)} ${canonicalJson(rest as Json)}`;
    })
    .join('; ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The effect in JSON: paired analysis when the batch pairs, the Welch one on request (or when it does not). */
function effectJson(e: OutcomeEffect, welch: boolean): Record<string, unknown> {
  const p = e.paired;
  return {
    outcome: e.outcome,
    constant: e.constant,
    control: arm(e.control),
    treated: arm(e.treated),
    effect: {
      mean: e.treated.mean - e.control.mean,
      ...(p
        ? {
            paired: { lo: p.t.lo, hi: p.t.hi, se: p.t.se, df: p.t.df, t: p.t.t, p: p.t.p },
            signFlip: {
              lo: p.signFlip.lo,
              hi: p.signFlip.hi,
              p: p.signFlip.p,
              exact: p.signFlip.exact,
              flips: p.signFlip.flips,
            },
            correlation: p.correlation,
            varianceRatio: p.varianceRatio,
            differences: p.differences,
          }
        : {}),
      ...(welch || !p ? { welch: welchJson(e.welch) } : {}),
    },
  };
}

/** The batch as JSON: its fork point, arms, pairing and every outcome's effect. */
export function batchJson(
  batch: ForkBatch,
  effects: readonly OutcomeEffect[],
  welch: boolean,
): Record<string, unknown> {
  return {
    dir: batch.dir,
    parent: batch.parent,
    parentDigest: batch.parentDigest,
    atTick: batch.atTick,
    world: batch.world,
    treatment: batch.treatment,
    control: batch.control.length,
    treated: batch.treated.length,
    paired: batch.pairs !== null,
    ...(batch.pairs ? { pairs: batch.pairs.length, seeds: batch.pairs.map((p) => p.seed) } : {}),
    ...(batch.unpaired ? { unpaired: batch.unpaired } : {}),
    ignored: batch.ignored,
    outcomes: effects.map((e) => effectJson(e, welch)),
  };
}

/** The lines that describe a batch: what was forked where, the arms, and how they pair. */
export function describeBatch(b: ForkBatch): string[] {
  const n = b.pairs
    ? `${b.pairs.length} pairs of children`
    : `${b.treated.length} treated and ${b.control.length} control children`;
  const seeds = (xs: readonly { seed: number }[]) => describeSeeds(xs.map((x) => x.seed));
  return [
    `${b.dir}: ${n} of ${b.parent} (${b.world.id}@${b.world.version}, digest ${b.parentDigest.slice(0, 12)}…), forked after tick ${b.atTick}`,
    `  treated: ${describeTreatment(b.treatment)}; control: no intervention (a reseed only)`,
    b.pairs
      ? `  each pair shares its future seed (${seeds(b.pairs)}): analysed as paired (common random numbers)`
      : `  ${b.unpaired}: analysed as two independent samples (Welch); seeds treated ${seeds(b.treated)}, control ${seeds(b.control)}`,
    ...(b.ignored.length ? [`  not fork children, left out: ${b.ignored.join(', ')}`] : []),
  ];
}
