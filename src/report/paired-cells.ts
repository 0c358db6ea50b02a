import { formatInterval, formatPercent } from '../core/index.ts';

/** A sign-flip interval as text; `–` when too few pairs bound it (fewer than 6 at 95%). */
export function signFlipText(lo: number, hi: number): string {
  return Number.isFinite(lo) && Number.isFinite(hi) ? formatInterval(lo, hi) : '–';
}

/** Pairing's variance reduction 1 − ratio as a percentage; `–` when undefined. */
export function reductionText(varianceRatio: number): string {
  return Number.isFinite(varianceRatio) ? formatPercent(1 - varianceRatio) : '–';
}

/** What the sign-flip column means when some interval is unbounded. */
export const FEW_PAIRS_NOTE =
  'sign-flip –: fewer than 6 pairs bound no 95% interval (2 of 2^n sign vectors already exceed 5%)';
