import {
  type ChatRequest,
  type ChatRequestMessage,
  type JsonSchemaObject,
  messageText,
} from './chat-request.ts';
import { type FieldRole, type FieldRoles, fieldRole } from './field-role.ts';
import type { ResponderKit, ResponderReply } from './llm-responder.ts';
import { type PromptFacts, readPromptFacts } from './prompt-facts.ts';
import { planReply, type ReplyPlan } from './reply-plan.ts';
import { RequestDice } from './request-dice.ts';
import { schemaInPrompt } from './schema-in-prompt.ts';
import { isObject, nodeProperties, resolveNode } from './schema-node.ts';
import { certainTokens, type WireTokenLogprob } from './token-logprobs.ts';
import { countTokens, TOKENS_PER_MESSAGE, TOKENS_REPLY_PRIMING, truncateToTokens } from './tokenizer.ts';

/** The tool a request forces (`tool_choice` naming a function, or `required`). */
export interface ForcedTool {
  name: string;
  parameters?: JsonSchemaObject;
}

/**
 * One request as the responders see it: what it asks for (a forced tool, a JSON Schema in
 * `response_format` or in the prompt, JSON mode, free text), the prompt convention, the
 * dice and the plan, each read once when first asked for.
 */
export class RequestKit implements ResponderKit {
  readonly dice: RequestDice;
  /** The forced tool, if any. */
  readonly tool: ForcedTool | undefined;
  /** The schema of a forced tool or of `response_format: json_schema` (counted in the prompt's tokens). */
  readonly requested: JsonSchemaObject | undefined;
  /** True when the reply is JSON: a forced tool, `json_schema` or `json_object`. */
  readonly json: boolean;
  private readonly plainText: boolean;
  private readonly roles: FieldRoles;
  private factsRead?: PromptFacts;
  private schemaRead?: { schema: JsonSchemaObject | undefined };
  private planned?: ReplyPlan;

  constructor(
    readonly request: ChatRequest,
    roles: FieldRoles = new Map(),
  ) {
    this.roles = roles;
    this.dice = RequestDice.fromRequest(request);
    this.tool = forcedTool(request, this.dice);
    const format = request.response_format;
    this.requested = this.tool
      ? (this.tool.parameters ?? {})
      : format?.type === 'json_schema'
        ? format.json_schema.schema
        : undefined;
    this.plainText = !this.tool && (format === undefined || format === null || format.type === 'text');
    this.json = this.tool !== undefined || format?.type === 'json_schema' || format?.type === 'json_object';
  }

  get facts(): PromptFacts {
    this.factsRead ??= readPromptFacts(this.request.messages);
    return this.factsRead;
  }

  /** The schema the reply must fill: the requested one, else one the free-text prompt carries. */
  get schema(): JsonSchemaObject | undefined {
    this.schemaRead ??= {
      schema: this.requested ?? (this.plainText ? schemaInPrompt(this.facts.lastUserText) : undefined),
    };
    return this.schemaRead.schema;
  }

  get freeText(): boolean {
    return this.plainText && !this.schema;
  }

  /** The role of a property name: declared by a responder, else from the generic vocabulary. */
  roleOf(key: string): FieldRole {
    return fieldRole(key, this.roles);
  }

  plan(): ReplyPlan {
    this.planned ??= planReply(this.facts, this.dice, ...this.choices());
    return this.planned;
  }

  finish(body: string): ResponderReply {
    const { request, dice, tool } = this;
    const promptTokens = this.promptTokens(this.requested);
    if (tool) {
      const call = { id: `call_${dice.key.slice(0, 24)}`, name: tool.name, arguments: body };
      const completionTokens = countTokens(tool.name) + countTokens(body);
      return {
        content: null,
        toolCalls: [call],
        finishReason: 'tool_calls',
        json: this.json,
        promptTokens,
        completionTokens,
        key: dice.key,
      };
    }
    const stopped = applyStop(body, request.stop);
    const limit = request.max_completion_tokens ?? request.max_tokens;
    const truncated = limit ? truncateToTokens(stopped, limit) : null;
    const content = truncated ?? stopped;
    return {
      content,
      toolCalls: [],
      finishReason: truncated === null ? 'stop' : 'length',
      json: this.json,
      promptTokens,
      completionTokens: countTokens(content),
      key: dice.key,
    };
  }

  jsonReply(content: string, tokens?: readonly WireTokenLogprob[]): ResponderReply {
    return {
      content,
      toolCalls: [],
      finishReason: 'stop',
      json: true,
      promptTokens: this.promptTokens(undefined),
      completionTokens: countTokens(content),
      key: this.dice.key,
      ...(tokens ? { tokens: [...tokens] } : {}),
    };
  }

  messageText(message: ChatRequestMessage): string {
    return messageText(message);
  }

  certainTokens(text: string): WireTokenLogprob[] {
    return certainTokens(text);
  }

  /** Action and addressee choices: a top-level `action` enum narrowed by the prompt's list. */
  private choices(): [actions: string[], targets: string[]] {
    const { schema } = this;
    const allowed = this.facts.allowedActions;
    const props = schema ? nodeProperties(resolveNode(schema, schema)) : {};
    let actions: string[] = [];
    let targets: string[] = [];
    for (const [key, raw] of Object.entries(props)) {
      const node = schema ? resolveNode(raw, schema) : {};
      const values = Array.isArray(node.enum)
        ? node.enum.filter((v): v is string => typeof v === 'string')
        : [];
      if (this.roleOf(key) === 'action' && actions.length === 0) actions = values;
      if (this.roleOf(key) === 'to' && targets.length === 0) targets = values;
    }
    const lower = new Set(allowed.map((a) => a.toLowerCase()));
    const both = actions.filter((a) => lower.has(a.toLowerCase()));
    return [both.length > 0 ? both : actions.length > 0 ? actions : [...allowed], targets];
  }

  /** Per message: 4 + its tokens (+1 with a name); plus 3 for reply priming and the schema's tokens. */
  private promptTokens(schema: JsonSchemaObject | undefined): number {
    let n = TOKENS_REPLY_PRIMING;
    for (const m of this.request.messages)
      n += TOKENS_PER_MESSAGE + countTokens(messageText(m)) + (m.name ? 1 : 0);
    if (schema && isObject(schema)) n += countTokens(JSON.stringify(schema));
    return n;
  }
}

function forcedTool(request: ChatRequest, dice: RequestDice): ForcedTool | undefined {
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (tools.length === 0 || !choice || choice === 'none' || choice === 'auto') return undefined;
  if (choice === 'required') return dice.pick('tool', tools).function;
  return tools.find((t) => t.function.name === choice.function.name)?.function;
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
