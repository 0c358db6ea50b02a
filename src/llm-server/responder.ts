import type { Json } from '../core/index.ts';
import type { LlmResponder } from './llm-responder.ts';
import type { ReplyPlan } from './reply-plan.ts';
import { fillSchema } from './schema-filler.ts';

/**
 * A forced tool, `response_format: json_schema`, or a free-text prompt carrying a JSON Schema
 * in a fenced `json` block: a JSON value valid against the schema (`fillSchema`), as a tool
 * call or as the content.
 */
export const schemaResponder: LlmResponder = {
  name: 'schema',
  respond(kit) {
    const { schema } = kit;
    if (!schema) return undefined;
    const roleOf = (key: string) => kit.roleOf(key);
    return kit.finish(
      JSON.stringify(fillSchema(schema, { plan: kit.plan(), dice: kit.dice, root: schema, roleOf })),
    );
  },
};

/** `response_format: json_object`: `{"action", "to"?, "text"}`. */
export const jsonObjectResponder: LlmResponder = {
  name: 'json-object',
  respond(kit) {
    if (!kit.json) return undefined;
    const plan = kit.plan();
    const out: Record<string, Json> = { action: plan.action };
    if (plan.to !== undefined) out.to = plan.to;
    out.text = plan.text;
    return kit.finish(JSON.stringify(out));
  },
};

/**
 * Plain text: the line itself, or, when the prompt has an `Allowed actions:` line,
 * `Action: <action>` / `To: <name>` / `Text: <line>` lines.
 */
export const textResponder: LlmResponder = {
  name: 'text',
  respond(kit) {
    return kit.finish(renderText(kit.plan(), kit.facts.allowedActions.length > 0));
  },
};

/** The generic responders, in the order the server asks them after the worlds' own. */
export const GENERIC_RESPONDERS: readonly LlmResponder[] = [
  schemaResponder,
  jsonObjectResponder,
  textResponder,
];

function renderText(plan: ReplyPlan, withAction: boolean): string {
  if (!withAction) return plan.text;
  const lines = [`Action: ${plan.action}`];
  if (plan.to !== undefined) lines.push(`To: ${plan.to}`);
  if (plan.text) lines.push(`Text: ${plan.text}`);
  return lines.join('\n');
}
