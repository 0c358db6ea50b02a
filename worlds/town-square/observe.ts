import type { Json, Message, StepContext } from '../../src/index.ts';
import { mentions } from './items.ts';
import { ITEM_HANDLES, type Town } from './town.ts';

/** What an agent heard this step, as plain data. */
export interface Heard {
  from: number;
  speaker: string;
  where: 'square' | 'dm';
  text: string;
}

/** Text of a `say` message, or null for other kinds. */
export function sayText(m: Message): string | null {
  if (m.kind !== 'say') return null;
  const text = (m.payload as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : null;
}

/**
 * Takes in an agent's inbox: the `say` messages it heard, and for each item it did not know
 * that a message carries, records the provenance and the words it heard (`heard` memory).
 * `learnEvent` picks the statechart event (LLM agents learn, rule agents start spreading).
 */
export function takeInbox(
  ctx: StepContext<unknown>,
  town: Town,
  learnEvent: 'learn' | 'spread',
): { heard: Heard[]; words: Record<string, Json> } {
  const heard: Heard[] = [];
  const words = { ...((ctx.get('heard') as Record<string, Json> | undefined) ?? {}) };
  for (const m of ctx.inbox) {
    const text = sayText(m);
    if (text === null) continue;
    const speaker = m.from >= 0 ? town.cast[m.from].name : 'the town crier';
    heard.push({ from: m.from, speaker, where: m.route === 'channel' ? 'square' : 'dm', text });
    for (const h of ITEM_HANDLES) {
      if (!ctx.in(h.region, h.ignorant) || !mentions(text, h.item)) continue;
      ctx.fire(learnEvent === 'learn' ? h.learn : h.spread);
      ctx.setSlot(h.src, m.from);
      ctx.setSlot(h.at, ctx.tick);
      words[h.item.id] = `${text} (heard from ${speaker})`;
    }
  }
  return { heard, words };
}
