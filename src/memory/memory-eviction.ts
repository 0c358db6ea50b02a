import type { MemoryEntry } from './memory-entry.ts';
import { recencyOf } from './retrieval.ts';

/** How much a memory is worth keeping at tick `now`: `importance * decay ^ age`. */
export function retentionScore(entry: MemoryEntry, now: number, decay: number): number {
  return entry.importance * recencyOf(now, entry.t, decay);
}

/**
 * `entries` without the `count` least worth keeping (lowest {@link retentionScore}; among
 * equals, the oldest id first), in their original order. A new array; the input is not
 * modified. The choice is a pure function of the entries, so eviction is deterministic.
 */
export function evictLowest(
  entries: readonly MemoryEntry[],
  count: number,
  now: number,
  decay: number,
): MemoryEntry[] {
  if (count <= 0) return entries.slice();
  if (count >= entries.length) return [];
  const n = entries.length;
  const scores = new Float64Array(n);
  // The threshold walk needs ids in ascending order (as in every stream) and no NaN score.
  let simple = true;
  for (let i = 0; i < n; i++) {
    scores[i] = retentionScore(entries[i], now, decay);
    if (Number.isNaN(scores[i]) || (i > 0 && entries[i].id <= entries[i - 1].id)) simple = false;
  }
  const dropped = simple ? lowestByThreshold(scores, count) : lowestBySort(entries, scores, count);
  return entries.filter((_, i) => dropped[i] === 0);
}

/**
 * Marks the `count` lowest scores, ties to the lowest index (= the oldest id when ids
 * ascend, as in a stream): the `count`-th smallest score is found by selection in a copy,
 * then every score below it and the first scores equal to it are marked. The same set as
 * sorting (score, id) pairs, without a comparator call per comparison.
 */
function lowestByThreshold(scores: Float64Array, count: number): Uint8Array {
  const threshold = nthSmallest(scores.slice(), count - 1);
  const dropped = new Uint8Array(scores.length);
  let below = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i] < threshold) below++;
  let ties = count - below;
  for (let i = 0; i < scores.length; i++) {
    if (scores[i] < threshold) dropped[i] = 1;
    else if (scores[i] === threshold && ties > 0) {
      dropped[i] = 1;
      ties--;
    }
  }
  return dropped;
}

/** The general case (ids in any order): sort indices by (score, id). */
function lowestBySort(entries: readonly MemoryEntry[], scores: Float64Array, count: number): Uint8Array {
  const worse = (i: number, j: number): boolean =>
    scores[i] < scores[j] || (scores[i] === scores[j] && entries[i].id < entries[j].id);
  const order = entries.map((_, i) => i).sort((i, j) => (worse(i, j) ? -1 : worse(j, i) ? 1 : 0));
  const dropped = new Uint8Array(entries.length);
  for (let k = 0; k < count; k++) dropped[order[k]] = 1;
  return dropped;
}

/**
 * The `k`-th smallest value (0-based) of `a` (no NaN), as `a.sort()[k]` gives it,
 * reordering `a`: Hoare selection with a middle pivot, linear on average instead of a
 * whole sort. Deterministic (no random pivot): the value does not depend on the pivots.
 */
function nthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const x = a[i];
        a[i] = a[j];
        a[j] = x;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}
