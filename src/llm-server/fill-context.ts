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
  /**
   * Characters the reply may still take (about its JSON text): each value spends from it, and
   * once it is spent no more items or properties are added and strings are cut, so a schema
   * asking for 10^8 items or a 10^9-character string costs no more than the budget.
   */
  budget: FillBudget;
  /** The role of a property name: the responders' declared roles, then the generic vocabulary (`fieldRole`). */
  roleOf(key: string): FieldRole;
}

/** What is left of a reply's size, and whether the filler had to stop short of the schema. */
export interface FillBudget {
  chars: number;
  cut: boolean;
}

/** Most characters of one schema-filled reply, whatever the request asks. */
export const MAX_REPLY_CHARS = 256 * 1024;

/**
 * The budget of one reply: {@link MAX_REPLY_CHARS}, or less with `max_tokens` (16 characters
 * a token, above what a token of this server's tokenizer holds; the reply is then cut at the
 * token limit exactly).
 */
export function replyBudget(maxTokens: number | null | undefined): FillBudget {
  const byTokens = maxTokens ? maxTokens * 16 : Number.POSITIVE_INFINITY;
  return { chars: Math.min(MAX_REPLY_CHARS, byTokens), cut: false };
}

/** Spends `n` characters; false (and the budget marked cut) when none were left. */
export function spend(budget: FillBudget, n: number): boolean {
  if (budget.chars <= 0) {
    budget.cut = true;
    return false;
  }
  budget.chars -= n;
  return true;
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
