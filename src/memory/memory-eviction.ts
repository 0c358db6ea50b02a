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
  const scores = entries.map((e) => retentionScore(e, now, decay));
  const worse = (i: number, j: number): boolean =>
    scores[i] < scores[j] || (scores[i] === scores[j] && entries[i].id < entries[j].id);
  if (count === 1) {
    let drop = 0;
    for (let i = 1; i < entries.length; i++) if (worse(i, drop)) drop = i;
    return entries.filter((_, i) => i !== drop);
  }
  const order = entries.map((_, i) => i).sort((i, j) => (worse(i, j) ? -1 : worse(j, i) ? 1 : 0));
  const dropped = new Set(order.slice(0, count));
  return entries.filter((_, i) => !dropped.has(i));
}
