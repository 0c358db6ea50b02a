import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import { LlmCallError } from './llm-errors.ts';
import type { ChatMessage, LlmReply, TokenLogprob } from './port.ts';

/** LangChain's message classes (loaded lazily by the ports: replays never pay LangChain's import). */
export interface MessageClasses {
  SystemMessage: new (content: string) => BaseMessage;
  HumanMessage: new (content: string) => BaseMessage;
  AIMessage: new (content: string) => BaseMessage;
}

/** Our chat messages as LangChain messages. */
export function toLangChainMessages(lc: MessageClasses, messages: readonly ChatMessage[]): BaseMessage[] {
  return messages.map((m) => {
    if (m.role === 'system') return new lc.SystemMessage(m.content);
    if (m.role === 'assistant') return new lc.AIMessage(m.content);
    return new lc.HumanMessage(m.content);
  });
}

/**
 * A LangChain reply as an {@link LlmReply}: its text, token usage, and the model name the
 * endpoint reported (else `requestedModel`). A reply without content is `malformed`.
 */
export function toLlmReply(message: AIMessage, requestedModel: string): LlmReply {
  if (!message || (typeof message.content !== 'string' && !Array.isArray(message.content)))
    throw new LlmCallError('malformed', 'LLM call failed (malformed): the reply has no message content');
  const text = typeof message.content === 'string' ? message.content : message.text;
  const usage = message.usage_metadata;
  const reported = message.response_metadata?.model_name ?? message.response_metadata?.model;
  const reply: LlmReply = {
    text,
    usage: { input: usage?.input_tokens ?? 0, output: usage?.output_tokens ?? 0 },
    model: typeof reported === 'string' && reported !== '' ? reported : requestedModel,
    attempts: [],
  };
  const logprobs = logprobsOf(message.response_metadata?.logprobs);
  if (logprobs) reply.logprobs = logprobs;
  return reply;
}

interface WireLogprob {
  token?: unknown;
  logprob?: unknown;
  top_logprobs?: WireLogprob[] | null;
}

/**
 * The content token log-probabilities of a Chat Completions choice, as LangChain's
 * `ChatOpenAI` leaves them in `response_metadata.logprobs` (the choice's `logprobs` object:
 * `{ content: [{ token, logprob, bytes, top_logprobs }] }`), or undefined when there are none.
 */
function logprobsOf(raw: unknown): TokenLogprob[] | undefined {
  const content = (raw as { content?: unknown } | null | undefined)?.content;
  if (!Array.isArray(content)) return undefined;
  const one = (t: WireLogprob) => ({ token: String(t.token ?? ''), logprob: Number(t.logprob) });
  return (content as WireLogprob[]).map((t) => ({ ...one(t), top: (t.top_logprobs ?? []).map(one) }));
}
