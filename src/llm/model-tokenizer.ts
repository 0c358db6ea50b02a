import type { Tiktoken, TiktokenBPE, TiktokenModel } from 'js-tiktoken/lite';
import { parseModelRef } from './model-ref.ts';
import type { LlmRequest } from './port.ts';

/** The tokenizers {@link modelTokenCounter} knows: OpenAI's two chat-model encodings. */
export type ModelEncoding = 'o200k_base' | 'cl100k_base';

/** Counts the tokens a request will cost (prompt plus reply allowance) before it is sent. */
export type RequestTokenCounter = (request: LlmRequest) => number;

const RANKS: Record<ModelEncoding, () => Promise<TiktokenBPE>> = {
  o200k_base: async () => (await import('js-tiktoken/ranks/o200k_base')).default,
  cl100k_base: async () => (await import('js-tiktoken/ranks/cl100k_base')).default,
};

/** Built encoders, one per encoding and process (building o200k_base costs ~2.5 s CPU). */
const encoders = new Map<ModelEncoding, Promise<Tiktoken>>();

/**
 * The encoding of an OpenAI chat model, by js-tiktoken's own model table (gpt-4o, gpt-4.1,
 * gpt-5 and the o-series → o200k_base; gpt-4 and gpt-3.5 → cl100k_base), or undefined for a
 * model it does not know or one served by another provider (`anthropic:…`).
 */
export async function modelEncoding(model: string): Promise<ModelEncoding | undefined> {
  const ref = parseModelRef(model);
  if (ref.provider !== undefined && ref.provider !== 'openai') return undefined;
  const { getEncodingNameForModel } = await import('js-tiktoken/lite');
  try {
    const name = getEncodingNameForModel(ref.name as TiktokenModel);
    return name === 'o200k_base' || name === 'cl100k_base' ? name : undefined;
  } catch {
    return undefined; // not an OpenAI model name
  }
}

async function encoder(encoding: ModelEncoding): Promise<Tiktoken> {
  let built = encoders.get(encoding);
  if (!built) {
    built = Promise.all([import('js-tiktoken/lite'), RANKS[encoding]()]).then(
      ([{ Tiktoken }, ranks]) => new Tiktoken(ranks),
    );
    encoders.set(encoding, built);
  }
  return built;
}

/**
 * Tokens of a chat request counted with its model's real tokenizer, as OpenAI's cookbook
 * counts them ("How to count tokens with tiktoken", openai/openai-cookbook): 3 per message
 * plus its role and content, 3 priming the reply; plus the reply's `maxTokens` (256 when
 * unset) as the estimate of what the answer will cost. Text that looks like a special token
 * is counted as plain text.
 */
export function countWithEncoder(enc: Tiktoken, request: LlmRequest): number {
  let tokens = 3;
  for (const m of request.messages)
    tokens += 3 + enc.encode(m.role, [], []).length + enc.encode(m.content, [], []).length;
  return tokens + (request.params.maxTokens ?? 256);
}

/**
 * A request token counter using `model`'s tokenizer when its encoding is known, else
 * undefined (callers fall back to the character estimate, `estimateTokens`). The encoder's
 * tables are loaded on first use only.
 */
export async function modelTokenCounter(model: string): Promise<RequestTokenCounter | undefined> {
  const encoding = await modelEncoding(model);
  if (!encoding) return undefined;
  const enc = await encoder(encoding);
  return (request) => countWithEncoder(enc, request);
}
