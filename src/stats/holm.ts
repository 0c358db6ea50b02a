/**
 * Holm's (1979) step-down adjusted p-values, in the order of the input. With the m
 * non-NaN p-values sorted ascending p_(1) <= … <= p_(m), the adjusted value of p_(i) is
 * max_{j <= i} min(1, (m − j + 1) · p_(j)): monotone in the raw p-values and capped at 1.
 * Rejecting where the adjusted p <= α controls the family-wise error rate at α. NaN entries
 * stay NaN and do not count in m (as R's `p.adjust(method = "holm")` does with NA).
 */
export function holm(p: readonly number[]): number[] {
  const order = p
    .map((_v, k) => k)
    .filter((k) => !Number.isNaN(p[k]))
    .sort((x, y) => p[x] - p[y] || x - y);
  const m = order.length;
  const out = p.map(() => Number.NaN);
  let running = 0;
  order.forEach((k, i) => {
    running = Math.max(running, Math.min(1, (m - i) * p[k]));
    out[k] = running;
  });
  return out;
}
