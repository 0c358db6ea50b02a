/**
 * The q-quantile of an ascending-sorted sample by linear interpolation between order
 * statistics (Hyndman & Fan 1996 type 7, the default of R's `quantile` and numpy's
 * `quantile`): h = (n − 1) q, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋ + 1] − x[⌊h⌋]). NaN when empty.
 */
export function quantileType7(sorted: readonly number[], q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
