/** What a JSON property is for: the line, the addressee, the action, a reason, the agent's name, the item passed on. */
export type FieldRole = 'text' | 'to' | 'action' | 'reason' | 'name' | 'item' | 'other';

/** Roles by property name, keys as {@link fieldKey} normalises them (see {@link fieldRole}). */
export type FieldRoles = ReadonlyMap<string, FieldRole>;

/**
 * The names of the generic reply vocabulary: the fields of an agent's reply (`{action, to,
 * text}`, the generic responder's own JSON object), their common synonyms, a judge's
 * `reasoning`, and `item` for the `You know:` bullet passed on. Words of one world's own
 * vocabulary are not here: a world declares them with its responder (`fieldRoles`).
 */
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
    ].concat(['dialogue', 'statement', 'post', 'words']),
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
  ['item', ['item', 'shareditem']],
];

const GENERIC: FieldRoles = new Map(ROLES.flatMap(([role, names]) => names.map((n) => [n, role] as const)));

/** A property name with case, `_`, `-` and other non-alphanumerics removed (`action_type` -> `actiontype`). */
export function fieldKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The role of a property, from its name with case, `_` and `-` ignored: a role `declared`
 * by a responder first (a world's own words), then the generic vocabulary: `text`/
 * `content`/`message`... get the in-character line; `to`/`target`/`recipient`... the
 * addressee; `action`/`action_type`... the action; `reasoning`/`rationale`/`thought`...
 * a reason; `name`/`speaker`... the agent's name; `item`/`shared_item` the item passed on
 * (empty when none); anything else is `other`.
 */
export function fieldRole(key: string, declared?: FieldRoles): FieldRole {
  const k = fieldKey(key);
  return declared?.get(k) ?? GENERIC.get(k) ?? 'other';
}
