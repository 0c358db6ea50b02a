import type { Json, WorldView } from '../../src/index.ts';
import { ITEM_HANDLES, type Town } from './town.ts';

/** Per tick, per item: how many agents know it, how many learned it this tick, how many of them are LLM agents. */
export function townMetrics(
  town: Town,
  view: WorldView,
  previous: Readonly<Record<string, number>> | undefined,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const h of ITEM_HANDLES) {
    const id = h.item.id;
    const knowers = view.size - view.executor.counts(h.region)[h.ignorant];
    let llm = 0;
    for (const r of town.cast) if (r.llm && view.executor.stateIndex(r.index, h.region) !== h.ignorant) llm++;
    out[`${id}.knowers`] = knowers;
    out[`${id}.new`] = knowers - (previous?.[`${id}.knowers`] ?? 0);
    out[`${id}.llmKnowers`] = llm;
    out[`${id}.fraction`] = knowers / view.size;
  }
  return out;
}

/** Who knows each item at the end, from whom they learned it, and when. */
export function townSummary(town: Town, view: WorldView): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const h of ITEM_HANDLES) {
    const learned: Json[] = [];
    for (const r of town.cast) {
      const at = view.executor.slot(r.index, h.at);
      if (at < 0) continue;
      const src = view.executor.slot(r.index, h.src);
      learned.push({
        agent: r.name,
        from: src === r.index ? 'start' : (town.cast[src]?.name ?? 'world'),
        tick: at,
      });
    }
    learned.sort((a, b) => (a as { tick: number }).tick - (b as { tick: number }).tick);
    out[h.item.id] = { knowers: learned.length, fraction: learned.length / view.size, learned };
  }
  return out;
}
