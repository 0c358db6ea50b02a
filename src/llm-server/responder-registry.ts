import { ConfigError } from '../core/index.ts';
import type { ChatRequest } from './chat-request.ts';
import { type FieldRole, type FieldRoles, fieldKey } from './field-role.ts';
import type { LlmResponder, ResponderReply } from './llm-responder.ts';
import { RequestKit } from './request-kit.ts';
import { GENERIC_RESPONDERS } from './responder.ts';

const ROLE_NAMES: ReadonlySet<string> = new Set<FieldRole>([
  'text',
  'to',
  'action',
  'reason',
  'name',
  'item',
  'other',
]);
const HINT =
  'a responder is { name: string, fieldRoles?: { field: role }, respond(kit) } (src/llm-server/README.md)';

/**
 * The local server's one list of responders: the contributed ones (worlds' own prompt
 * formats) in the order given, then the generic ones (schema filling, JSON object, plain
 * text), which answer every request. Field roles declared by the contributed responders are
 * merged, the first declaration of a name winning. Checked when built: a malformed responder
 * (from a user's world file) is a `ConfigError` naming it, before the server listens.
 */
export class ResponderRegistry {
  /** Every responder, in the order they are asked. */
  readonly responders: readonly LlmResponder[];
  private readonly roles: FieldRoles;

  constructor(contributed: readonly LlmResponder[] = []) {
    const names = new Set<string>();
    const roles = new Map<string, FieldRole>();
    for (const r of contributed) {
      checkResponder(r, names);
      for (const [key, role] of Object.entries(r.fieldRoles ?? {})) {
        if (!ROLE_NAMES.has(role))
          throw new ConfigError(`responder "${r.name}": field role "${role}" of "${key}" is not a role`, {
            hint: `roles: ${[...ROLE_NAMES].join(', ')}`,
          });
        if (!roles.has(fieldKey(key))) roles.set(fieldKey(key), role);
      }
    }
    this.responders = [...contributed, ...GENERIC_RESPONDERS];
    this.roles = roles;
  }

  /** The reply of the first responder that answers (the generic text responder answers everything). */
  respond(request: ChatRequest): ResponderReply {
    const kit = new RequestKit(request, this.roles);
    for (const r of this.responders) {
      let reply: ResponderReply | undefined;
      try {
        reply = r.respond(kit);
      } catch (err) {
        throw new Error(`responder "${r.name}" failed: ${err instanceof Error ? err.message : String(err)}`, {
          cause: err,
        });
      }
      if (reply) return reply;
    }
    throw new Error('no responder answered'); // unreachable: the text responder answers every request
  }
}

function checkResponder(r: LlmResponder, names: Set<string>): void {
  const name = typeof r?.name === 'string' && r.name !== '' ? r.name : undefined;
  if (!name || typeof r.respond !== 'function')
    throw new ConfigError(`not a local LLM responder: ${describe(r)}`, { hint: HINT });
  if (names.has(name) || GENERIC_RESPONDERS.some((g) => g.name === name))
    throw new ConfigError(`two local LLM responders are named "${name}"`, { hint: 'give each its own name' });
  if (r.fieldRoles !== undefined && (typeof r.fieldRoles !== 'object' || r.fieldRoles === null))
    throw new ConfigError(`responder "${name}": fieldRoles must be an object of field name to role`, {
      hint: HINT,
    });
  names.add(name);
}

function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  const name = (value as { name?: unknown }).name;
  return typeof name === 'string' ? `"${name}" (no respond function)` : 'an object without a name';
}

/**
 * The reply of the generic responders, with `contributed` asked first: a pure function of the
 * request body (see {@link ResponderRegistry}).
 */
export function respond(request: ChatRequest, contributed: readonly LlmResponder[] = []): ResponderReply {
  return new ResponderRegistry(contributed).respond(request);
}
