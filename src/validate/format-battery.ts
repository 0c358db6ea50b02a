import type { ValidationRow } from './run-battery.ts';

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? x.toExponential(2) : x.toFixed(4);
}

function result(r: ValidationRow): string {
  const p = r.perturbation;
  if (!p) return r.pass ? 'pass' : 'FAIL';
  const seen = p.detected ? 'detected' : 'missed';
  return p.mustDetect && !p.detected ? 'MISSED' : seen;
}

/**
 * The report as a plain-text table: case, test, predicted, observed, band, replicates
 * qualified/needed (runs made), the deviation the case must detect and its power, and the
 * result (with `--perturb`: the expected power and whether the case detected it).
 */
export function formatBattery(rows: readonly ValidationRow[]): string {
  const perturbed = rows.some((r) => r.perturbation);
  const head = ['case', 'test', 'predicted', 'observed', 'band', 'reps (runs)', 'must detect', 'power'];
  if (perturbed) head.push('expected power');
  head.push('result');
  const body = rows.map((r) => {
    const cells = [
      r.id,
      r.test,
      fmt(r.predicted),
      fmt(r.observed),
      `[${fmt(r.lo)}, ${fmt(r.hi)}]`,
      `${r.qualified}/${r.replicates} (${r.runs})`,
      r.deviation.label,
      r.power.toFixed(3),
    ];
    if (perturbed) cells.push(r.perturbation?.expectedPower?.toFixed(3) ?? 'n/a');
    cells.push(result(r));
    return cells;
  });
  const widths = head.map((h, k) => Math.max(h.length, ...body.map((b) => b[k].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, k) => c.padEnd(widths[k]))
      .join('  ')
      .trimEnd();
  const notes = rows.filter((r) => r.reason).map((r) => `${r.id}: ${r.reason}`);
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line), ...notes].join('\n');
}
