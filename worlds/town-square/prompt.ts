import type { ChatMessage } from '../../src/public/llm.ts';
import type { Resident } from './cast.ts';

/** What one LLM agent may see when it decides: its own profile, what it knows, its memories, its contacts. */
export interface AgentView {
  self: Resident;
  tick: number;
  /** Items it knows: its own starting items as sentences, learned ones as the words it heard. */
  known: string[];
  /** Recalled memories, formatted `- Speaker: text`, oldest first. */
  memories: string[];
  /** Names it may message directly. */
  contacts: string[];
}

/** The JSON reply every LLM agent gives. */
export const ACTIONS = ['speak', 'dm', 'none'] as const;

/**
 * Builds an agent's prompt from its own view only (following the local server's prompt
 * convention: Name / Persona / Goal / You know, then Recent messages / Allowed actions /
 * Contacts). Nothing of any other agent's profile, goal or secret is passed in.
 */
export function buildPrompt(v: AgentView): ChatMessage[] {
  const s = v.self;
  const system = [
    'You live in a small town and talk with your neighbours in the town square (everyone hears) or in direct messages (only your contacts).',
    `Name: ${s.name}`,
    `Persona: ${s.age}-year-old ${s.occupation}; ${s.persona}`,
    `Goal: ${s.goal}`,
    ...(s.secret ? [`Your secret, which you must never reveal: ${s.secret}`] : []),
    ...(v.known.length ? ['You know:', ...v.known.map((k) => `- ${k}`)] : []),
    'Answer with one JSON object: {"action": "speak" | "dm" | "none", "to": a contact\'s name for dm, "text": what you say}.',
  ].join('\n');
  const user = [
    `It is turn ${v.tick}.`,
    ...(v.memories.length ? ['Recent messages:', ...v.memories] : ['Recent messages: none yet.']),
    `Allowed actions: ${ACTIONS.join(', ')}`,
    `Contacts: ${v.contacts.join(', ')}`,
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

/** JSON schema of the reply (structured output where the endpoint supports it). */
export function replySchema(contacts: readonly string[]): Record<string, import('../../src/index.ts').Json> {
  return {
    type: 'object',
    properties: {
      action: { type: 'string', enum: [...ACTIONS] },
      to: { type: 'string', enum: ['', ...contacts] },
      text: { type: 'string' },
    },
    required: ['action', 'to', 'text'],
    additionalProperties: false,
  };
}
