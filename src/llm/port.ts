import type { Json } from '../core/index.ts';

/** One chat message as sent to an OpenAI-compatible endpoint. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Model parameters of a call. Everything here is recorded in the replay log. */
export interface LlmParams {
  model: string;
  temperature?: number;
  maxTokens?: number;
  /** Passed through to endpoints that accept a seed. */
  seed?: number;
  /** Ask for a JSON object reply; with a schema, structured output where supported. */
  json?: { name: string; schema: Record<string, Json> };
  /**
   * Ask for token log-probabilities with this many alternatives per token (OpenAI
   * `logprobs: true, top_logprobs: k`, k in 0..20). Unset: none are asked for.
   */
  logprobs?: number;
}

/** A request from an agent (or the judge) to the model. */
export interface LlmRequest {
  /** Who is asking: an agent id, or e.g. `judge`. */
  caller: string;
  /** Simulation tick of the decision. */
  tick: number;
  /** Why: `decide`, `reflect`, `judge`... */
  purpose: string;
  messages: ChatMessage[];
  params: LlmParams;
  /** promptHash of (params, messages), when a layer above already computed it. */
  promptHash?: string;
}

/** Token counts of one call. */
export interface TokenUsage {
  input: number;
  output: number;
}

/** One failed attempt, kept for the log. */
export interface LlmAttempt {
  /** e.g. `http-429`, `http-500`, `timeout`, `connection`, `malformed`. */
  error: string;
  /** Back-off waited before the next attempt, in ms (drawn from a seeded stream). */
  backoffMs: number;
  /** Tokens the endpoint billed for a reply that was then discarded (e.g. malformed JSON). */
  usage?: TokenUsage;
}

/** One generated token with its log-probability and the most likely alternatives (OpenAI `logprobs.content[i]`). */
export interface TokenLogprob {
  token: string;
  logprob: number;
  /** The `top_logprobs` alternatives at this position, most likely first. */
  top: { token: string; logprob: number }[];
}

/** The model's answer with what it cost. */
export interface LlmReply {
  text: string;
  usage: TokenUsage;
  /** Model name the endpoint reported. */
  model: string;
  /** Failed attempts before this reply (empty when the first try worked). */
  attempts: LlmAttempt[];
  /**
   * Set only by a replay of an `llm` line that holds its attempts inside the digest (logs
   * written before attempts moved under `wall`), so that the recorder writes them back there
   * and the old log keeps verifying. Live calls never set it.
   */
  attemptsInDigest?: boolean;
  /** True when served from the on-disk cache. */
  cached?: boolean;
  /**
   * Set only by a replay of an `llm` line that holds `cached: true` inside the digest (logs
   * written before the cache flag moved under `wall`), so that the recorder writes it back
   * there and the old log keeps verifying. Live calls never set it.
   */
  cachedInDigest?: boolean;
  /** Wall-clock latency in ms (excluded from digests). */
  latencyMs?: number;
  /** Token log-probabilities of the content, when the request asked for them (`params.logprobs`). */
  logprobs?: TokenLogprob[];
}

/** The one interface every LLM layer implements and wraps. */
export interface LlmPort {
  complete(request: LlmRequest): Promise<LlmReply>;
}
