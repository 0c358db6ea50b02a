import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AIMessage } from '@langchain/core/messages';
import { ConfigError, canonicalJson } from '../core/index.ts';
import { type ApiKey, revealKey } from './api-key.ts';
import { logprobsFields, missingLogprobs, openAICallOptions } from './chat-openai-port.ts';
import { toLlmCallError } from './classify-llm-error.ts';
import { type MessageClasses, toLangChainMessages, toLlmReply } from './langchain-messages.ts';
import { safeUrl } from './llm-config.ts';
import { CHAT_MODEL_PROVIDERS, parseModelRef } from './model-ref.ts';
import type { LlmParams, LlmPort, LlmReply, LlmRequest } from './port.ts';

/** Options of {@link ChatModelPort}. */
export interface ChatModelPortOptions {
  /** Endpoint override (`--llm-base-url`), for the providers that take one (openai, ollama, anthropic). */
  baseURL?: string;
  /** Key for the `openai` provider (from `OPENAI_API_KEY`); other providers read their own variable. */
  apiKey?: string | ApiKey;
  /** Per-request timeout in ms (default 60 000). */
  timeoutMs?: number;
}

type InitChatModel = (model: string, fields: Record<string, unknown>) => Promise<BaseChatModel>;

interface Loaded extends MessageClasses {
  initChatModel: InitChatModel;
}

let loaded: Promise<Loaded> | undefined;

function load(): Promise<Loaded> {
  loaded ??= Promise.all([
    import('langchain/chat_models/universal'),
    import('@langchain/core/messages'),
  ]).then(([universal, messages]) => ({
    initChatModel: universal.initChatModel as unknown as InitChatModel,
    SystemMessage: messages.SystemMessage,
    HumanMessage: messages.HumanMessage,
    AIMessage: messages.AIMessage,
  }));
  return loaded;
}

/** How each provider that accepts another endpoint is told about it. */
const BASE_URL_FIELD: Record<string, (url: string) => Record<string, unknown>> = {
  openai: (url) => ({ configuration: { baseURL: url } }),
  ollama: (url) => ({ baseUrl: url }),
  anthropic: (url) => ({ anthropicApiUrl: url }),
};

/**
 * The base LLM layer for `provider:name` models (`anthropic:claude-sonnet-4-5`,
 * `ollama:llama3.2`, `openai:gpt-4o`...): LangChain's `initChatModel` builds the provider's
 * chat model, whose package (`@langchain/anthropic`, `@langchain/ollama`...) the user
 * installs when they first use that provider. LangChain's retries are off (the retry layer
 * retries); failures become {@link LlmCallError}s. JSON mode is asked for with OpenAI's
 * `response_format` for the `openai` provider; other providers get the prompt's own
 * instructions and the lenient parser.
 */
export class ChatModelPort implements LlmPort {
  private readonly models = new Map<string, Promise<BaseChatModel>>();
  private readonly provider: string;
  private readonly key: string | undefined;

  constructor(
    readonly model: string,
    private readonly options: ChatModelPortOptions = {},
  ) {
    const provider = parseModelRef(model).provider;
    if (provider === undefined)
      throw new ConfigError(`model ${JSON.stringify(model)} names no provider`, {
        hint: `Write provider:model with a provider of ${Object.keys(CHAT_MODEL_PROVIDERS).join(', ')}.`,
      });
    if (options.baseURL !== undefined && !Object.hasOwn(BASE_URL_FIELD, provider))
      throw new ConfigError(`--llm-base-url cannot be used with provider ${provider}`, {
        hint: `Only ${Object.keys(BASE_URL_FIELD).join(', ')} models take another endpoint; configure ${provider} through its own variables.`,
      });
    this.provider = provider;
    this.key = options.apiKey === undefined ? undefined : revealKey(options.apiKey);
  }

  /**
   * Loads the provider's package and builds the model once, so that a missing package or a
   * missing key is a {@link ConfigError} (exit 2) before the run starts, not a failed call.
   */
  async check(): Promise<void> {
    await this.modelFor({ model: this.model });
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const lc = await load();
    const chat = await this.modelFor(request.params);
    const options = this.provider === 'openai' ? openAICallOptions(request.params) : {};
    let message: AIMessage;
    try {
      message = (await chat.invoke(toLangChainMessages(lc, request.messages), options)) as AIMessage;
    } catch (err) {
      throw toLlmCallError(err, this.key ? [this.key] : []);
    }
    const reply = toLlmReply(message, parseModelRef(request.params.model).name);
    if (request.params.logprobs !== undefined && !reply.logprobs)
      throw missingLogprobs(
        this.options.baseURL ? safeUrl(this.options.baseURL) : `of the ${this.provider} provider`,
      );
    return reply;
  }

  /** One model per (model, temperature, max tokens, logprobs): constructor fields in LangChain. */
  private modelFor(params: LlmParams): Promise<BaseChatModel> {
    const key = canonicalJson([
      params.model,
      params.temperature ?? null,
      params.maxTokens ?? null,
      params.logprobs ?? null,
    ]);
    let chat = this.models.get(key);
    if (!chat) {
      chat = this.build(params);
      this.models.set(key, chat);
    }
    return chat;
  }

  private async build(params: LlmParams): Promise<BaseChatModel> {
    const { initChatModel } = await load();
    const { baseURL, timeoutMs } = this.options;
    try {
      return await initChatModel(params.model, {
        ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
        ...(params.maxTokens === undefined ? {} : { maxTokens: params.maxTokens }),
        ...(this.key === undefined ? {} : { apiKey: this.key }),
        ...(baseURL === undefined ? {} : BASE_URL_FIELD[this.provider](baseURL)),
        ...(this.provider === 'openai' ? logprobsFields(params) : {}),
        timeout: timeoutMs ?? 60_000,
        maxRetries: 0,
      });
    } catch (err) {
      throw providerError(this.provider, err, this.key);
    }
  }
}

/** A provider that cannot be set up (package not installed, key missing) as a ConfigError. */
function providerError(provider: string, err: unknown, key: string | undefined): ConfigError {
  const pkg = CHAT_MODEL_PROVIDERS[provider];
  const message = toLlmCallError(err, key ? [key] : []).message.replace(/^LLM call failed \([^)]*\): /, '');
  if (/Unable to import|Cannot find (package|module)/.test(message))
    return new ConfigError(`the ${provider} provider needs the package ${pkg}, which is not installed`, {
      hint: `Install it next to grapevine: npm install ${pkg}`,
    });
  return new ConfigError(`cannot set up the ${provider} model: ${message}`, {
    hint: `Check the ${provider} provider's settings (its API key variable, e.g. ${provider.toUpperCase()}_API_KEY).`,
  });
}
