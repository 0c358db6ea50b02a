import type { WorldView } from '../../src/index.ts';

interface Kept {
  tick: number;
  changes: number;
  values: Float64Array;
}

const kept = new WeakMap<WorldView, Kept>();

/**
 * The opinions `x` sorted ascending, shared by a tick's metrics (the cluster count) and its
 * stop rule (the Deffuant–Weisbuch consensus test), which sorted all of them each: two sorts
 * of the population per tick. The sort is kept while the tick and the executor's change mark
 * stay the same, so anything that moves an opinion in between (an intervention) gets a fresh
 * one; an executor without a change mark sorts at every call. Read-only: do not modify it.
 */
export function sortedOpinions(view: WorldView): Float64Array {
  const changes = view.executor.changeCount?.();
  const last = kept.get(view);
  if (changes !== undefined && last && last.tick === view.tick && last.changes === changes)
    return last.values;
  const values = Float64Array.from(view.memoryColumn('x')).sort();
  if (changes !== undefined) kept.set(view, { tick: view.tick, changes, values });
  return values;
}
