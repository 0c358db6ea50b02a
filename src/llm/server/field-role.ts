/** What a JSON property is for, guessed from its name. */
export type FieldRole = 'text' | 'to' | 'action' | 'reason' | 'name' | 'item' | 'other';

const ROLES: readonly [FieldRole, readonly string[]][] = [
  [
    'text',
    [
      'text',
      'content',
      'message',
      'utterance',
      'say',
      'speech',
      'reply',
      'response',
      'line',
      'msg',
      'body',
    ].concat(['dialogue', 'argument', 'statement', 'post', 'words']),
  ],
  ['to', ['to', 'target', 'recipient', 'recipients', 'addressee', 'receiver', 'toagent', 'whom', 'dmto']],
  ['action', ['action', 'act', 'actiontype', 'intent', 'move', 'decision', 'choice', 'kind']],
  [
    'reason',
    [
      'reasoning',
      'rationale',
      'reason',
      'thought',
      'thoughts',
      'explanation',
      'justification',
      'analysis',
    ].concat(['comment', 'comments', 'summary', 'feedback', 'notes', 'verdict', 'plan']),
  ],
  ['name', ['name', 'speaker', 'agent', 'from', 'sender', 'agentname', 'self', 'author']],
  ['item', ['item', 'fact', 'rumour', 'rumor', 'shareditem', 'secret', 'claim', 'news', 'knowledge']],
];

/**
 * The role of a property, from its name with case, `_` and `-` ignored: `text`/`content`/
 * `message`/`argument`... get the in-character line; `to`/`target`/`recipient`... the
 * addressee; `action`/`action_type`... the action; `reasoning`/`rationale`/`thought`...
 * a reason; `name`/`speaker`... the agent's name; `item`/`fact`/`rumour`... the item
 * passed on (empty when none); anything else is `other`.
 */
export function fieldRole(key: string): FieldRole {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const [role, names] of ROLES) if (names.includes(k)) return role;
  return 'other';
}
