import type { JsonSchemaObject } from './chat-request.ts';
import type { FieldRole } from './field-role.ts';
import type { ReplyPlan } from './reply-plan.ts';
import type { RequestDice } from './request-dice.ts';

/** What the schema filler needs to know besides the schema. */
export interface FillContext {
  plan: ReplyPlan;
  dice: RequestDice;
  /** The root schema, for `$ref`s. */
  root: JsonSchemaObject;
  /** The role of a property name: the responders' declared roles, then the generic vocabulary (`fieldRole`). */
  roleOf(key: string): FieldRole;
}

/** Where a value sits: the keys and indexes leading to it, and whether a sibling is a number. */
export interface FillPath {
  keys: readonly (string | number)[];
  /** True when the enclosing object or tuple also holds a number (a score beside a reason). */
  besideScore: boolean;
}

/** The nearest property name on the path (array indexes skipped), or `''`. */
export function lastKey(path: FillPath, skip: (key: string) => boolean = () => false): string {
  for (let i = path.keys.length - 1; i >= 0; i--) {
    const k = path.keys[i];
    if (typeof k === 'string' && !skip(k)) return k;
  }
  return '';
}
