import type { RngStreams } from '../../src/index.ts';
import type { RumorParams } from './params.ts';

/**
 * Per-agent adoption thresholds of the Watts (2002) model, drawn once from the run's
 * `thresholds` stream: all `phi`, normal(phi, phiSpread) or uniform phi ± phiSpread,
 * clipped to [0, 1]. A constant of the run (never changes, so snapshots need not hold it).
 */
export function drawThresholds(p: RumorParams, size: number, rng: RngStreams): Float64Array {
  const out = new Float64Array(size).fill(p.phi);
  if (p.phiDistribution === 'fixed' || p.phiSpread === 0) return out;
  const s = rng.stream('thresholds');
  for (let i = 0; i < size; i++) {
    const d =
      p.phiDistribution === 'uniform'
        ? (2 * s.next() - 1) * p.phiSpread
        : Math.sqrt(-2 * Math.log(1 - s.next())) * Math.cos(2 * Math.PI * s.next()) * p.phiSpread;
    out[i] = Math.min(1, Math.max(0, p.phi + d));
  }
  return out;
}
