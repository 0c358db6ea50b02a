import type { Json, Message, StepContext } from '../../src/index.ts';
import { mentions } from './items.ts';
import { ITEM_HANDLES, type Said, type Town } from './town.ts';

/** What an agent heard this step, as plain data. */
export interface Heard {
  from: number;
  speaker: string;
  where: 'square' | 'dm';
  text: string;
  /** The line the hearer remembers: `Speaker: text`, or `Speaker (to you): text` for a direct message. */
  line: string;
}

/** Text of a `say` message, or null for other kinds. */
export function sayText(m: Message): string | null {
  if (m.kind !== 'say') return null;
  const text = (m.payload as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : null;
}

/**
 * What a `say` message means to whoever hears it, worked out on its first hearer and shared
 * by the rest (one string per line, not one per hearer: the memory module's per-text memos
 * then hash each line once). Null for other messages.
 */
function saidOf(m: Message, town: Town): Said | null {
  const hit = town.said.get(m);
  if (hit) return hit;
  const text = sayText(m);
  if (text === null) return null;
  const speaker = m.from >= 0 ? town.cast[m.from].name : 'the town crier';
  const where = m.route === 'channel' ? 'square' : 'dm';
  const said: Said = {
    from: m.from,
    speaker,
    where,
    text,
    line: `${speaker}${where === 'dm' ? ' (to you)' : ''}: ${text}`,
    words: ITEM_HANDLES.map((h) => (mentions(text, h.item) ? `${text} (heard from ${speaker})` : undefined)),
  };
  town.said.set(m, said);
  return said;
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
    const said = saidOf(m, town);
    if (said === null) continue;
    heard.push(said);
    for (let n = 0; n < ITEM_HANDLES.length; n++) {
      const h = ITEM_HANDLES[n];
      const carried = said.words[n];
      if (carried === undefined || !ctx.in(h.region, h.ignorant)) continue;
      ctx.fire(learnEvent === 'learn' ? h.learn : h.spread);
      ctx.setSlot(h.src, m.from);
      ctx.setSlot(h.at, ctx.tick);
      words[h.item.id] = carried;
    }
  }
  return { heard, words };
}
