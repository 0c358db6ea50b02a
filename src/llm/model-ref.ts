/**
 * The providers LangChain's `initChatModel` knows, with the package each needs (langchain
 * 1.5's `MODEL_PROVIDER_CONFIG`; a test checks this table against the installed langchain).
 * Listed here so that telling `ollama:llama3.2` (a provider model) from `llama3:8b` (a plain
 * model name with a tag) does not need to load LangChain.
 */
export const CHAT_MODEL_PROVIDERS: Readonly<Record<string, string>> = {
  openai: '@langchain/openai',
  anthropic: '@langchain/anthropic',
  azure_openai: '@langchain/openai',
  langsmith: '@langchain/openai',
  cohere: '@langchain/cohere',
  google: '@langchain/google',
  'google-vertexai': '@langchain/google-vertexai',
  'google-vertexai-web': '@langchain/google-vertexai-web',
  'google-genai': '@langchain/google-genai',
  ollama: '@langchain/ollama',
  mistralai: '@langchain/mistralai',
  mistral: '@langchain/mistralai',
  groq: '@langchain/groq',
  bedrock: '@langchain/aws',
  aws: '@langchain/aws',
  deepseek: '@langchain/deepseek',
  xai: '@langchain/xai',
  cerebras: '@langchain/cerebras',
  fireworks: '@langchain/fireworks',
  together: '@langchain/together-ai',
  perplexity: '@langchain/perplexity',
};

/** A `--model` value split into provider and model name. */
export interface ModelRef {
  /** A key of {@link CHAT_MODEL_PROVIDERS}, or undefined for a plain model name (OpenAI-compatible endpoint). */
  provider: string | undefined;
  /** The model name the provider knows. */
  name: string;
}

/**
 * Splits `provider:name` as `initChatModel` does: the part before the first `:` is a
 * provider only when it is one LangChain knows, so `llama3:8b` stays a plain model name.
 */
export function parseModelRef(model: string): ModelRef {
  const colon = model.indexOf(':');
  if (colon < 0) return { provider: undefined, name: model };
  const provider = model.slice(0, colon);
  return Object.hasOwn(CHAT_MODEL_PROVIDERS, provider)
    ? { provider, name: model.slice(colon + 1) }
    : { provider: undefined, name: model };
}
