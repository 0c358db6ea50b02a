/**
 * Cluster means: groups `rows` by `key` and averages `value` within each group, returned in
 * ascending key order (code-unit order, so the result does not depend on the locale). Used
 * for scenario-level analysis: average the pairs within a scenario first, then test across
 * scenarios, so that repeated pairs do not shrink standard errors.
 */
export function averageBy<T>(
  rows: readonly T[],
  key: (r: T) => string,
  value: (r: T) => number,
): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of rows) {
    const k = key(r);
    const s = sums.get(k) ?? { sum: 0, n: 0 };
    s.sum += value(r);
    s.n += 1;
    sums.set(k, s);
  }
  const keys = [...sums.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return new Map(
    keys.map((k) => {
      const s = sums.get(k) as { sum: number; n: number };
      return [k, s.sum / s.n];
    }),
  );
}
