/** Significant digits {@link formatNumber} shows by default. */
export const DISPLAY_DIGITS = 4;

/** Removes trailing zeros of a decimal mantissa (`0.5000` → `0.5`, `1.200e-5` → `1.2e-5`, `1.000` → `1`). */
function stripZeros(s: string): string {
  return s.replace(/(\.\d*?)0+(?=$|e)/, '$1').replace(/\.(?=$|e)/, '');
}

/**
 * A number as people read it in a table, a chart axis or a terminal: `digits` significant
 * digits (default 4) with trailing zeros dropped, as R prints with `signif` (`-0.01679999999999998`
 * → `-0.0168`). Integers are shown whole (counts are exact: `2000`, `123456`), and so is the
 * integer part of any number of `digits` or more integer digits (`12345.6` → `12346`); below
 * 10^-4 and from 10^15 on, scientific notation (`1.235e-5`). NaN and infinities read `NaN`,
 * `Inf`, `-Inf`; negative zero reads `0`. Machine-readable output (`--json`, CSV, Parquet)
 * keeps full precision: this is for what a person reads.
 */
export function formatNumber(x: number, digits = DISPLAY_DIGITS): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Inf' : '-Inf';
  if (x === 0) return '0';
  const ax = Math.abs(x);
  if (ax >= 1e15 || ax < 1e-4) return stripZeros(x.toExponential(digits - 1));
  if (Number.isInteger(x) || ax >= 10 ** digits) return String(Math.round(x));
  const s = x.toPrecision(digits);
  // toPrecision switches to exponent notation when rounding carries into a new digit (9999.7 → 1.000e+4)
  return s.includes('e') ? String(Math.round(x)) : stripZeros(s);
}

/** A confidence interval as `[lo, hi]`, both bounds by {@link formatNumber}. */
export function formatInterval(lo: number, hi: number, digits = DISPLAY_DIGITS): string {
  return `[${formatNumber(lo, digits)}, ${formatNumber(hi, digits)}]`;
}

/**
 * A share as a percentage rounded to a tenth of a point, by {@link formatNumber} (`0.4183` →
 * `41.8%`; rounding noise such as `4e-16` → `0%`).
 */
export function formatPercent(share: number, digits = DISPLAY_DIGITS): string {
  return Number.isFinite(share)
    ? `${formatNumber(Math.round(share * 1000) / 10, digits)}%`
    : formatNumber(share);
}
