import { formatNumber } from '../core/index.ts';

/** One axis: its domain, where its ticks go, and how a tick reads. */
export interface AxisScale {
  lo: number;
  hi: number;
  ticks: number[];
  label(v: number): string;
}

/** Round steps (1, 2 or 5 × 10^k) at most `count` to a span, from the first multiple at or below lo. */
function niceStep(lo: number, hi: number, count: number): number {
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
}

/** The smallest and largest finite values, or undefined when there are none. */
export function extent(values: Iterable<number>): [number, number] | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : undefined;
}

/**
 * A linear axis over [lo, hi]: nice ticks (1, 2, 5 × 10^k), and the domain widened to the
 * ticks around the data. `pad` widens it further by that share of the span above the data
 * (`padLow` below it, default the same), so that a marker or a line at the data's extremes
 * stays inside the frame rather than on it. A single value gets a unit span around it.
 */
export function linearScale(lo: number, hi: number, pad = 0, padLow = pad): AxisScale {
  if (!(hi > lo)) [lo, hi] = lo === 0 ? [0, 1] : [lo - Math.abs(lo) / 2, hi + Math.abs(hi) / 2];
  const step = niceStep(lo, hi, 5);
  const a = Math.floor(lo / step + 1e-9) * step;
  const b = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let v = a; v <= b + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return {
    lo: Math.min(a, lo - (hi - lo) * padLow),
    hi: Math.max(b, hi + (hi - lo) * pad),
    ticks,
    label: (v) => formatNumber(v),
  };
}

/**
 * A base-10 logarithmic axis over [lo, hi] (both > 0), in log10 units: ticks at the powers
 * of ten it spans (every other one beyond eight), labelled as the values they stand for.
 */
export function logScale(lo: number, hi: number, pad = 0): AxisScale {
  let a = Math.floor(Math.log10(lo));
  let b = Math.ceil(Math.log10(hi));
  if (a === b) [a, b] = [a - 1, b + 1];
  const every = b - a > 8 ? 2 : 1;
  const ticks: number[] = [];
  for (let k = a; k <= b; k += every) ticks.push(k);
  const label = (k: number) => (Math.abs(k) <= 4 ? formatNumber(10 ** k) : `1e${k}`);
  const [la, lb] = [Math.log10(lo), Math.log10(hi)];
  const p = (lb - la) * pad;
  return { lo: Math.min(a, la - p), hi: Math.max(b, lb + p), ticks, label };
}
