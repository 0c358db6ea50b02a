import { canonicalJson, type Json, sha256Hex } from '../core/index.ts';

/** The tag hashed before a sweep's seed, so that the derivation can change under a new name. */
export const RUN_SEED_TAG = 'grapevine-sweep-seed/1';

/**
 * The seed of one run of a sweep: the first 13 hex digits (52 bits, a safe integer) of
 * sha256 of `grapevine-sweep-seed/1 \n S \n canonicalJson(point) \n replicate`. The point
 * enters by its parameter values, not its position, so adding a value to a grid changes
 * no other point's seeds; every (point, replicate) gets its own independent stream. A sweep
 * with shared seeds passes the empty point for every point (see `planSweep`).
 */
export function runSeed(sweepSeed: number, point: Readonly<Record<string, Json>>, replicate: number): number {
  const text = `${RUN_SEED_TAG}\n${sweepSeed}\n${canonicalJson(point)}\n${replicate}`;
  return Number.parseInt(sha256Hex(text).slice(0, 13), 16);
}
