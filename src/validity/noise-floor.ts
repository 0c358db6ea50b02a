import type { Shares } from './distances.ts';

/**
 * Split-half noise floor of a distance over a human sample given as shares of n respondents:
 * the counts round(share · n) are expanded into one code per respondent, shuffled with
 * `rng` and cut into two halves, and the distance between the halves' shares is averaged
 * over `splits` shuffles. A simulator that drew from the human population itself would
 * score about this much against a human sample of this size, so distances near the floor
 * are as good as the data can tell apart. Halves of n/2 make the floor conservative (a
 * little above the distance of a perfect model against all n).
 */
export function splitHalfFloor(
  shares: Shares,
  n: number,
  distance: (p: Shares, q: Shares) => number,
  opts: { splits: number; rng: () => number },
): number {
  const options = Object.keys(shares);
  const codes: number[] = [];
  options.forEach((o, i) => {
    for (let c = Math.round(shares[o] * n); c > 0; c--) codes.push(i);
  });
  if (codes.length < 4) return Number.NaN;
  const half = Math.floor(codes.length / 2);
  let total = 0;
  for (let s = 0; s < opts.splits; s++) {
    // partial Fisher-Yates: the first half becomes a uniform random half of the sample
    for (let i = 0; i < half; i++) {
      const j = i + Math.floor(opts.rng() * (codes.length - i));
      [codes[i], codes[j]] = [codes[j], codes[i]];
    }
    total += distance(sharesOf(codes, 0, half, options), sharesOf(codes, half, 2 * half, options));
  }
  return total / opts.splits;
}

function sharesOf(codes: number[], from: number, to: number, options: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of options) out[o] = 0;
  for (let i = from; i < to; i++) out[options[codes[i]]] += 1 / (to - from);
  return out;
}
