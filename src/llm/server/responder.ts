import type { Json } from '../../core/index.ts';
import { type ChatRequest, type JsonSchemaObject, messageText } from './chat-request.ts';
import { fieldRole } from './field-role.ts';
import { replyBudget } from './fill-context.ts';
import { readPromptFacts } from './prompt-facts.ts';
import { renderScript, schemaInPrompt, scriptParticipants } from './prompt-formats.ts';
import { planReply, type ReplyPlan } from './reply-plan.ts';
import { RequestDice } from './request-dice.ts';
import { fillSchema } from './schema-filler.ts';
import { isObject, nodeProperties, resolveNode } from './schema-node.ts';
import type { WireTokenLogprob } from './token-logprobs.ts';
import { countTokens, TOKENS_PER_MESSAGE, TOKENS_REPLY_PRIMING, truncateToTokens } from './tokenizer.ts';

/** A function call in a reply (when the request forces a tool). */
export interface ResponderToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments, filled from the tool's `parameters` schema. */
  arguments: string;
}

/** The deterministic reply to one chat completion request. */
export interface ResponderReply {
  /** Assistant text; `null` when the reply is a tool call. */
  content: string | null;
  toolCalls: ResponderToolCall[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  /** True when the content (or the tool arguments) is JSON. */
  json: boolean;
  /** Token counts, by the rule of `tokenizer.ts`. */
  promptTokens: number;
  completionTokens: number;
  /** The request key the choices were drawn from (sha256 hex); also names the reply. */
  key: string;
  /** Token log-probabilities of `content` when the responder knows them (else every token is certain). */
  tokens?: WireTokenLogprob[];
}

/**
 * The local model: a pure function of the request body (model, messages, seed, temperature
 * drive every choice; see {@link RequestDice.fromRequest}), never of time or request order.
 * It reads the prompt convention (`Name:`, `Persona:`, `Goal:`, `You know:`,
 * `Recent messages:`, `Allowed actions:`, `Contacts:`; see README.md), plans a reply with
 * `planReply` and renders it:
 *
 * - a forced tool (`tool_choice` naming a function, or `required`): a tool call whose
 *   arguments fill the tool's `parameters` schema;
 * - `response_format: json_schema`: a JSON object valid against the schema (`fillSchema`);
 * - `response_format: json_object`: `{"action", "to"?, "text"}`;
 * - no `response_format`, a prompt carrying a JSON Schema in a fenced `json` block: a JSON
 *   instance of it; a prompt with a `Participants: A and B` line asking for `Turn #` lines:
 *   a short script (`prompt-formats.ts`);
 * - plain text: the line itself, or, when the prompt has an `Allowed actions:` line,
 *   `Action: <action>` / `To: <name>` / `Text: <line>` lines.
 *
 * `stop` sequences cut the content; `max_completion_tokens` (or `max_tokens`) truncates it
 * with finish reason `length`.
 */
export function respond(request: ChatRequest): ResponderReply {
  const dice = RequestDice.fromRequest(request);
  const facts = readPromptFacts(request.messages);
  const tool = forcedTool(request, dice);
  const format = request.response_format;
  const requested = tool
    ? (tool.parameters ?? {})
    : format?.type === 'json_schema'
      ? format.json_schema.schema
      : undefined;
  const plainText = !tool && (format === undefined || format === null || format.type === 'text');
  const schema = requested ?? (plainText ? schemaInPrompt(facts.lastUserText) : undefined);
  const plan = planReply(facts, dice, ...choicesFrom(schema, facts.allowedActions));
  const json = tool !== undefined || format?.type === 'json_schema' || format?.type === 'json_object';
  const participants = plainText && !schema ? scriptParticipants(facts.lastUserText) : undefined;
  let body: string;
  const limit = request.max_completion_tokens ?? request.max_tokens;
  const budget = replyBudget(limit);
  if (schema) body = JSON.stringify(fillSchema(schema, { plan, dice, root: schema, budget }));
  else if (json) body = JSON.stringify(defaultObject(plan));
  else if (participants) body = renderScript(participants, plan.text, dice);
  else body = renderText(plan, facts.allowedActions.length > 0);
  const promptTokens = countPrompt(request, requested);
  if (tool) {
    const args = limit ? (truncateToTokens(body, limit) ?? body) : body;
    const call = { id: `call_${dice.key.slice(0, 24)}`, name: tool.name, arguments: args };
    const completionTokens = countTokens(tool.name) + countTokens(args);
    return {
      content: null,
      toolCalls: [call],
      finishReason: args !== body || budget.cut ? 'length' : 'tool_calls',
      json,
      promptTokens,
      completionTokens,
      key: dice.key,
    };
  }
  const stopped = applyStop(body, request.stop);
  const truncated = limit ? truncateToTokens(stopped, limit) : null;
  const content = truncated ?? stopped;
  const finishReason = truncated === null && !budget.cut ? 'stop' : 'length';
  return {
    content,
    toolCalls: [],
    finishReason,
    json,
    promptTokens,
    completionTokens: countTokens(content),
    key: dice.key,
  };
}

interface ForcedTool {
  name: string;
  parameters?: JsonSchemaObject;
}

function forcedTool(request: ChatRequest, dice: RequestDice): ForcedTool | undefined {
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (tools.length === 0 || !choice || choice === 'none' || choice === 'auto') return undefined;
  if (choice === 'required') return dice.pick('tool', tools).function;
  return tools.find((t) => t.function.name === choice.function.name)?.function;
}

/** Action and addressee choices: a top-level `action` enum narrowed by the prompt's list. */
function choicesFrom(
  schema: JsonSchemaObject | undefined,
  allowed: readonly string[],
): [actions: string[], targets: string[]] {
  const props = schema ? nodeProperties(resolveNode(schema, schema)) : {};
  let actions: string[] = [];
  let targets: string[] = [];
  for (const [key, raw] of Object.entries(props)) {
    const node = schema ? resolveNode(raw, schema) : {};
    const values = Array.isArray(node.enum)
      ? node.enum.filter((v): v is string => typeof v === 'string')
      : [];
    if (fieldRole(key) === 'action' && actions.length === 0) actions = values;
    if (fieldRole(key) === 'to' && targets.length === 0) targets = values;
  }
  const lower = new Set(allowed.map((a) => a.toLowerCase()));
  const both = actions.filter((a) => lower.has(a.toLowerCase()));
  return [both.length > 0 ? both : actions.length > 0 ? actions : [...allowed], targets];
}

function defaultObject(plan: ReplyPlan): Record<string, Json> {
  const out: Record<string, Json> = { action: plan.action };
  if (plan.to !== undefined) out.to = plan.to;
  out.text = plan.text;
  return out;
}

function renderText(plan: ReplyPlan, withAction: boolean): string {
  if (!withAction) return plan.text;
  const lines = [`Action: ${plan.action}`];
  if (plan.to !== undefined) lines.push(`To: ${plan.to}`);
  if (plan.text) lines.push(`Text: ${plan.text}`);
  return lines.join('\n');
}

function applyStop(text: string, stop: ChatRequest['stop']): string {
  const stops = stop === null || stop === undefined ? [] : typeof stop === 'string' ? [stop] : stop;
  let end = text.length;
  for (const s of stops) {
    const i = s ? text.indexOf(s) : -1;
    if (i >= 0 && i < end) end = i;
  }
  return text.slice(0, end);
}

/** Per message: 4 + its tokens (+1 with a name); plus 3 for reply priming and the schema's tokens. */
function countPrompt(request: ChatRequest, schema: JsonSchemaObject | undefined): number {
  let n = TOKENS_REPLY_PRIMING;
  for (const m of request.messages) n += TOKENS_PER_MESSAGE + countTokens(messageText(m)) + (m.name ? 1 : 0);
  if (schema && isObject(schema)) n += countTokens(JSON.stringify(schema));
  return n;
}
