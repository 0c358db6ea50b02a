import { z } from 'zod';
import type { LocalLlmServer } from '../../src/llm-server/index.ts';

/** A system prompt following the convention. */
export const SYSTEM_ANA = [
  'You are a villager in a small town.',
  'Name: Ana',
  'Persona: a cautious baker who loves gossip',
  'Goal: Find out who took the money from the mill.',
  'You know:',
  '- The mill will close next month.',
  '- Bob owes Carl ten coins.',
  '- The mayor was seen at the river at midnight.',
  '',
  'Stay in character.',
].join('\n');

/** A user turn following the convention. */
export function userTurn(lastSpeaker = 'Carl', lastText = 'I was at the inn all night.'): string {
  return [
    'Tick 3.',
    'Recent messages:',
    '- Bob: Did anyone see the cash box?',
    '- Ana: Not me.',
    `- ${lastSpeaker}: ${lastText}`,
    'Allowed actions: speak, dm, none',
    'Contacts: Bob, Carl',
  ].join('\n');
}

/** A chat completion body in the convention. */
export function conventionBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'grapevine-local',
    messages: [
      { role: 'system', content: SYSTEM_ANA },
      { role: 'user', content: userTurn() },
    ],
    ...extra,
  };
}

/** POSTs a body (object, or raw text) to the server's chat completions route. */
export function postChat(server: LocalLlmServer, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** The `data:` payloads of a server-sent events body. */
export function ssePayloads(text: string): string[] {
  return text
    .split('\n\n')
    .map((event) => event.trim())
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}

/** The assistant text of a streamed reply, assembled from its chunks. */
export function assembleStream(text: string): string {
  const payloads = ssePayloads(text);
  return payloads
    .filter((p) => p !== '[DONE]')
    .map((p) => JSON.parse(p) as { choices: { delta: { content?: string | null } }[] })
    .map((chunk) => chunk.choices[0]?.delta.content ?? '')
    .join('');
}

/** A response body parsed as JSON, typed loosely for inspection in assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions inspect wire bodies loosely
export async function jsonOf(res: Response | Promise<Response>): Promise<any> {
  return (await res).json();
}

/** A zod validator for a plain JSON Schema object (`z.fromJSONSchema`). */
export function validatorFor(schema: Record<string, unknown>): z.ZodType {
  return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
}
