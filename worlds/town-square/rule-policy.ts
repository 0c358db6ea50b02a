import type { Policy, StepContext } from '../../src/index.ts';
import { takeInbox } from './observe.ts';
import { ITEM_HANDLES, type Town } from './town.ts';

/**
 * A rule agent of the town square, with the rumour world's pairwise models: on hearing an
 * item it did not know it starts spreading the words it heard, one random contact per turn;
 * told something it already knew by another rule agent, it answers "ack", which stops the
 * teller (Maki-Thompson; Daley-Kendall also stops a spreader who is told again). It stops
 * after `ruleTellings` tellings, since LLM agents never answer "ack".
 */
export function rulePolicy(town: Town, ctx: StepContext<unknown>): ReturnType<Policy> {
  const { words } = takeInbox(ctx, town, 'spread');
  for (const m of ctx.inbox) {
    const h = ITEM_HANDLES.find((x) => x.item.id === m.item);
    if (!h) continue;
    if (m.kind === 'ack') {
      if (ctx.in(h.region, h.spreader)) ctx.fire(h.stifle);
      continue;
    }
    // told by a rule agent something it knew before this tick: say so (only rule agents listen)
    const knew = ctx.slot(h.at) >= 0 && ctx.slot(h.at) < ctx.tick;
    if (m.kind !== 'say' || m.from < 0 || town.cast[m.from].llm || !knew) continue;
    ctx.tell(m.from, 'ack', h.item.id);
    if (town.params.ruleModel === 'daley-kendall' && ctx.in(h.region, h.spreader)) ctx.fire(h.stifle);
  }
  for (const h of ITEM_HANDLES) {
    if (!ctx.in(h.region, h.spreader)) continue;
    const j = ctx.randomNeighbour();
    const text = words[h.item.id];
    if (j >= 0 && typeof text === 'string') {
      ctx.tell(j, 'say', h.item.id, { text: text.replace(/ \(heard from [^)]*\)$/, '') });
      ctx.setSlot(h.told, ctx.slot(h.told) + 1);
      if (ctx.slot(h.told) >= town.params.ruleTellings) ctx.fire(h.stifle);
    }
  }
  ctx.set('heard', words);
}
