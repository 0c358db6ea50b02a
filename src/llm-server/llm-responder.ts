import type { ChatRequest, ChatRequestMessage, JsonSchemaObject } from './chat-request.ts';
import type { FieldRole } from './field-role.ts';
import type { PromptFacts } from './prompt-facts.ts';
import type { ReplyPlan } from './reply-plan.ts';
import type { RequestDice } from './request-dice.ts';
import type { WireTokenLogprob } from './token-logprobs.ts';

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
 * What a responder gets for one request: the request, the generic responder's reading of it
 * (dice, prompt convention, plan) and its ways of finishing a reply. Everything it draws
 * comes from the request's dice, so a reply is a pure function of the request body.
 */
export interface ResponderKit {
  readonly request: ChatRequest;
  /** Choices drawn from sha256 of the request's content and a purpose (see `RequestDice`). */
  readonly dice: RequestDice;
  /** The prompt convention (`Name:`, `You know:`, `Recent messages:`...) read from the messages. */
  readonly facts: PromptFacts;
  /**
   * The JSON Schema the reply must fill: a forced tool's parameters, `response_format`'s
   * `json_schema`, or one that a free-text prompt carries in a fenced `json` block.
   */
  readonly schema: JsonSchemaObject | undefined;
  /** True when the reply must be JSON: a forced tool, `json_schema` or `json_object`. */
  readonly json: boolean;
  /** True when the request asks for free text: no JSON mode, no forced tool, no JSON Schema in its prompt. */
  readonly freeText: boolean;
  /** The role of a property name: a responder's declared role, else the generic vocabulary's. */
  roleOf(key: string): FieldRole;
  /** The generic responder's plan: action, addressee, and the in-character line. */
  plan(): ReplyPlan;
  /**
   * A reply with `body` as the generic responder ends one: a tool call when the request
   * forces a tool, else the content cut at `stop` and at `max_completion_tokens`, with token counts.
   */
  finish(body: string): ResponderReply;
  /** A JSON reply sent whole (no stop or length cut), with its tokens' log-probabilities when given. */
  jsonReply(content: string, tokens?: readonly WireTokenLogprob[]): ResponderReply;
  /** The text of a message (its string content, or its text parts joined by newlines). */
  messageText(message: ChatRequestMessage): string;
  /** The tokens of `text`, each certain (log-probability 0), which concatenate back to `text`. */
  certainTokens(text: string): WireTokenLogprob[];
}

/**
 * One way of answering chat requests, registered with the local server. The server asks its
 * responders in order (those of worlds first, the generic ones last) and sends the first
 * reply; a responder returns `undefined` for a request it does not read. A world contributes
 * responders for the prompts it writes (a questionnaire, a script format) through its CLI
 * contribution (`responders`) or, in a world file, an exported `responders` array.
 */
export interface LlmResponder {
  /** A short name, for error messages and docs (`survey-synthetic`, `sotopia-script`). */
  readonly name: string;
  /**
   * Roles of property names in this world's reply schemas (`{ argument: 'text' }`): the
   * schema filler fills a field by its role. Declared roles win over the generic vocabulary;
   * keys are compared with case, `_` and `-` ignored.
   */
  readonly fieldRoles?: Readonly<Record<string, FieldRole>>;
  /** The reply to the kit's request, or `undefined` to leave it to the next responder. */
  respond(kit: ResponderKit): ResponderReply | undefined;
}
