import type { AIMessage } from '@langchain/core/messages';
import type { ChatOpenAI, ChatOpenAICallOptions, ChatOpenAIResponseFormat } from '@langchain/openai';
import { ConfigError, canonicalJson, type Json } from '../core/index.ts';
import { type ApiKey, revealKey } from './api-key.ts';
import { bufferedFetch } from './buffered-fetch.ts';
import { toLlmCallError } from './classify-llm-error.ts';
import { type MessageClasses, toLangChainMessages, toLlmReply } from './langchain-messages.ts';
import { safeUrl } from './llm-config.ts';
import type { LlmParams, LlmPort, LlmReply, LlmRequest } from './port.ts';

/** Options of {@link ChatOpenAIPort}. */
export interface ChatOpenAIPortOptions {
  /** OpenAI-compatible base URL, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`. */
  baseURL: string;
  /** The key; an {@link ApiKey} keeps it out of logs. Required (local servers take any string). */
  apiKey: string | ApiKey | undefined;
  /** Per-request timeout in ms (default 60 000). */
  timeoutMs?: number;
  /** The HTTP client of the OpenAI SDK (default: {@link bufferedFetch}; tests compare it with the global `fetch`). */
  fetch?: typeof fetch;
}

/** LangChain, loaded on the first live call: replays and rule worlds never pay its ~1 s import. */
interface LangChain extends MessageClasses {
  ChatOpenAI: new (fields: Record<string, unknown>) => ChatOpenAI;
  undici: Pick<typeof import('undici'), 'Agent' | 'request'>;
}

let langChain: Promise<LangChain> | undefined;

function loadLangChain(): Promise<LangChain> {
  langChain ??= Promise.all([
    import('@langchain/openai'),
    import('@langchain/core/messages'),
    import('undici'),
  ]).then(([openai, messages, undici]) => {
    /**
     * `ChatOpenAI` pinned to the Chat Completions API. (`ChatOpenAI` switches some model
     * names, e.g. `*codex*`, to the Responses API, which most OpenAI-compatible servers lack.)
     */
    class CompletionsOnlyChatOpenAI extends openai.ChatOpenAI {
      protected override _useResponsesApi(): boolean {
        return false;
      }
    }
    return {
      ChatOpenAI: CompletionsOnlyChatOpenAI as unknown as LangChain['ChatOpenAI'],
      SystemMessage: messages.SystemMessage,
      HumanMessage: messages.HumanMessage,
      AIMessage: messages.AIMessage,
      undici,
    };
  });
  return langChain;
}

/**
 * The base LLM layer: one HTTP call per request through LangChain's `ChatOpenAI` (Chat
 * Completions). Model, temperature, max tokens, seed and JSON mode come from each request's
 * params. LangChain's retries are off (the retry layer retries). Every failure becomes an
 * {@link LlmCallError} whose texts never contain the key.
 */
export class ChatOpenAIPort implements LlmPort {
  private readonly models = new Map<string, ChatOpenAI>();
  private readonly key: string;
  private readonly baseURL: string;
  private readonly timeoutMs: number;
  /** One keep-alive connection pool for every model of this endpoint (made with the first model). */
  private fetch: typeof fetch | undefined;

  constructor(options: ChatOpenAIPortOptions) {
    if (options.apiKey === undefined)
      throw new ConfigError(`no API key for the LLM endpoint ${safeUrl(options.baseURL)}`, {
        hint: 'Set OPENAI_API_KEY, or point --llm-base-url at a local server (which needs no key).',
      });
    this.key = revealKey(options.apiKey);
    this.baseURL = options.baseURL;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.fetch = options.fetch;
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const lc = await loadLangChain();
    const chat = this.modelFor(lc, request.params);
    let message: AIMessage;
    try {
      message = (await chat.invoke(
        toLangChainMessages(lc, request.messages),
        openAICallOptions(request.params),
      )) as AIMessage;
    } catch (err) {
      throw toLlmCallError(err, [this.key]);
    }
    const reply = toLlmReply(message, request.params.model);
    if (request.params.logprobs !== undefined && !reply.logprobs)
      throw missingLogprobs(safeUrl(this.baseURL));
    return reply;
  }

  /** One client per (model, temperature, max tokens, logprobs): those are constructor fields in LangChain. */
  private modelFor(lc: LangChain, params: LlmParams): ChatOpenAI {
    const key = canonicalJson([
      params.model,
      params.temperature ?? null,
      params.maxTokens ?? null,
      params.logprobs ?? null,
    ]);
    let chat = this.models.get(key);
    if (!chat) {
      this.fetch ??= bufferedFetch(lc.undici);
      chat = new lc.ChatOpenAI({
        model: params.model,
        temperature: params.temperature,
        maxTokens: params.maxTokens,
        apiKey: this.key,
        configuration: { baseURL: this.baseURL, fetch: this.fetch },
        timeout: this.timeoutMs,
        maxRetries: 0,
        streaming: false,
        useResponsesApi: false,
        ...logprobsFields(params),
      });
      this.models.set(key, chat);
    }
    return chat;
  }
}

/**
 * LangChain's `ChatOpenAI` takes log-probabilities as constructor fields (`logprobs`,
 * `topLogprobs`, sent as `logprobs: true, top_logprobs: k`) and hands them back in
 * `response_metadata.logprobs`; empty when the request does not ask for them.
 */
export function logprobsFields(params: LlmParams): Record<string, unknown> {
  return params.logprobs === undefined ? {} : { logprobs: true, topLogprobs: params.logprobs };
}

/** The error of a request that asked for log-probabilities and got a reply without them (`endpoint`: a safe name of it). */
export function missingLogprobs(endpoint: string): ConfigError {
  return new ConfigError(
    `the LLM endpoint ${endpoint} returned no token log-probabilities (logprobs), which the request asked for`,
    {
      hint: 'use an endpoint that returns logprobs, or elicit without them (survey: --set elicitation=distribution)',
    },
  );
}

/**
 * Seed and response format as call options. A schema gives `json_schema` structured output;
 * an empty schema `{}` asks for a plain `json_object`.
 */
export function openAICallOptions(params: LlmParams): ChatOpenAICallOptions {
  const options: ChatOpenAICallOptions = {};
  if (params.seed !== undefined) options.seed = params.seed;
  if (params.json) {
    options.response_format =
      Object.keys(params.json.schema).length === 0
        ? { type: 'json_object' }
        : rawJsonSchemaFormat(params.json.name, params.json.schema);
  }
  return options;
}

/**
 * A `json_schema` response format that the OpenAI SDK will not `JSON.parse` itself. For
 * `json_schema` the SDK parses the content and throws an opaque `SyntaxError` on bad JSON,
 * losing the text; with an identity `$parseRaw` (the SDK's own hook for custom parsers, not
 * serialised: non-enumerable) the raw text comes back, and the layers above (retry on
 * unsalvageable JSON, lenient parse and zod validation) decide what to do with it.
 */
function rawJsonSchemaFormat(name: string, schema: Record<string, Json>): ChatOpenAIResponseFormat {
  const format = { type: 'json_schema' as const, json_schema: { name, schema } };
  Object.defineProperty(format, '$parseRaw', { value: (content: string) => content, enumerable: false });
  return format;
}
