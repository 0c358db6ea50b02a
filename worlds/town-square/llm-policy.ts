import { type Decision, type Json, type OutgoingMessage, type StepContext, z } from '../../src/index.ts';
import {
  decideStructured,
  emptyMemory,
  fitToBudget,
  type MemoryStreamState,
  recall,
  remember,
} from '../../src/public/llm.ts';
import { takeInbox } from './observe.ts';
import { ACTIONS, buildPrompt } from './prompt.ts';
import { contactsOf, ITEM_HANDLES, type Town } from './town.ts';

const NO_ACTION = { action: 'none' as const, to: '', text: '' };

/** What this agent knows, in the words it has: its own starting items, then what it heard. */
function knownItems(ctx: StepContext<unknown>, town: Town, words: Record<string, Json>): string[] {
  const self = town.cast[ctx.agent];
  const out: string[] = [];
  for (const h of ITEM_HANDLES) {
    if (ctx.in(h.region, h.ignorant)) continue;
    if (self.starts.includes(h.item.id as 'fact' | 'rumor')) out.push(h.item.text);
    else if (typeof words[h.item.id] === 'string') out.push(words[h.item.id] as string);
  }
  return out;
}

type Reply = { action: (typeof ACTIONS)[number]; to: string; text: string };
const replySchemas = new Map<string, z.ZodType<Reply>>();

/** The reply schema for these contacts, built once per contact list (zod schemas are immutable). */
function replyZod(names: readonly string[]): z.ZodType<Reply> {
  const key = names.join('\n');
  let schema = replySchemas.get(key);
  if (!schema) {
    schema = z.object({
      action: z.enum(ACTIONS),
      to: z.enum(['', ...names] as [string, ...string[]]),
      text: z.string(),
    });
    if (replySchemas.size >= 10_000) replySchemas.clear();
    replySchemas.set(key, schema);
  }
  return schema;
}

/**
 * An LLM resident's step. Synchronously it takes in its inbox (knowledge and provenance,
 * memories) and builds its prompt from its own view; then it asks the model for one JSON
 * action and returns the decision, which the engine commits in agent order.
 */
export function llmPolicy(town: Town, ctx: StepContext<unknown>): Promise<Decision> {
  const i = ctx.agent;
  const tick = ctx.tick;
  const self = town.cast[i];
  const { heard, words } = takeInbox(ctx, town, 'learn');
  let memory = (ctx.get('memory') as MemoryStreamState | undefined) ?? emptyMemory();
  // One remember for the whole inbox: the same stream as one call per message (eviction
  // keeps the best-kept entries either way), without copying the stream per message.
  if (heard.length)
    memory = remember(
      memory,
      heard.map((h) => ({ t: tick, kind: 'observation' as const, text: h.line, source: h.speaker })),
    );
  // The query is the inbox's texts joined by spaces (the goal when that is empty), given in parts.
  const parts = heard.map((h) => h.text);
  const query = parts.join(' ') ? parts : self.goal;
  const recalled = fitToBudget(recall(memory, query, { now: tick, k: 24 }), town.params.memoryTokens);
  const contacts = contactsOf(town, i, {
    forEachNeighbour: (_i, fn) => {
      for (let k = 0; k < ctx.degree(); k++) fn(ctx.neighbour(k));
    },
  });
  const messages = buildPrompt({
    self,
    tick,
    known: knownItems(ctx, town, words),
    memories: recalled.map((e) => `- ${e.text}`),
    contacts: contacts.names,
  });
  const schema = replyZod(contacts.names);
  const request = {
    caller: String(i),
    tick,
    purpose: 'decide',
    messages,
    params: {
      model: town.model,
      temperature: town.params.temperature,
      maxTokens: town.params.maxTokens,
      seed: town.seed,
    },
  };
  const llm = town.llm!;
  return (async () => {
    const result = await decideStructured(llm, request, schema, {
      fallback: NO_ACTION,
      counters: town.fallbacks,
      name: 'town_action',
    });
    const a = result.value;
    const text = a.text.trim();
    const out: OutgoingMessage[] = [];
    if (text && a.action === 'speak')
      out.push({ address: { to: 'channel', channel: 'square' }, kind: 'say', payload: { text } });
    const j = contacts.index.get(a.to);
    if (text && a.action === 'dm' && j !== undefined)
      out.push({ address: { to: 'agent', id: j }, kind: 'say', payload: { text } });
    if (out.length)
      memory = remember(memory, {
        t: tick,
        kind: 'action',
        text: `${self.name} (you${a.action === 'dm' ? ` to ${a.to}` : ''}): ${text}`,
      });
    return {
      memory: { memory: memory as unknown as Json, heard: words, fallback: result.fallback },
      messages: out,
    };
  })();
}
