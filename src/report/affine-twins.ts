/**
 * For each named column of numbers, the earlier column it is an exact affine function of
 * (y = a + b·x, b ≠ 0, within 1e-9 in correlation), or undefined: a metric such as `aware`
 * next to `fractionAware` = aware / n, or `ignorant` = n − aware, carries the same
 * information, so a report draws the first and names the others. Columns that do not vary
 * are never twins. Columns must have equal lengths.
 */
export function affineTwins(columns: ReadonlyMap<string, readonly number[]>): Map<string, string> {
  const kept: { name: string; z: number[] }[] = [];
  const twins = new Map<string, string>();
  for (const [name, xs] of columns) {
    const z = standardized(xs);
    if (!z) continue;
    const twin = kept.find((k) => Math.abs(dot(k.z, z)) > 1 - 1e-9);
    if (twin) twins.set(name, twin.name);
    else kept.push({ name, z });
  }
  return twins;
}

/** (x − mean) / ‖x − mean‖, or undefined when x does not vary or holds a non-finite value. */
function standardized(xs: readonly number[]): number[] | undefined {
  if (xs.length < 2 || !xs.every(Number.isFinite)) return undefined;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const d = xs.map((x) => x - mean);
  const norm = Math.sqrt(dot(d, d));
  return norm > 0 ? d.map((x) => x / norm) : undefined;
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
