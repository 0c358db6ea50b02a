import type { ResponderReply } from './llm-responder.ts';
import { certainTokens, wireLogprobs } from './token-logprobs.ts';
import { streamPieces } from './tokenizer.ts';

/**
 * `created` of every reply: fixed (2024-01-01T00:00:00Z) so that the same request always
 * gets the same bytes back.
 */
export const LOCAL_CREATED = 1704067200;

/** `system_fingerprint` of every reply. */
export const LOCAL_FINGERPRINT = 'fp_grapevine_local';

type Obj = Record<string, unknown>;

/**
 * The `chat.completion` object (non-streaming reply) for a responder reply; with `topLogprobs`
 * (the request asked for `logprobs`), the content's token log-probabilities with that many
 * alternatives each, else `logprobs: null`.
 */
export function completionBody(reply: ResponderReply, model: string, topLogprobs?: number): Obj {
  const message: Obj = { role: 'assistant', content: reply.content, refusal: null };
  if (reply.toolCalls.length > 0)
    message.tool_calls = reply.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  return {
    id: completionId(reply),
    object: 'chat.completion',
    created: LOCAL_CREATED,
    model,
    choices: [
      { index: 0, message, logprobs: logprobsOf(reply, topLogprobs), finish_reason: reply.finishReason },
    ],
    usage: usageOf(reply),
    system_fingerprint: LOCAL_FINGERPRINT,
  };
}

/**
 * The `chat.completion.chunk` objects of a streamed reply, as OpenAI sends them: a first
 * delta with the role, content deltas of about a word each (or tool-call argument deltas),
 * a last choice delta with the finish reason and, with `include_usage`, one more chunk with
 * empty `choices` and the usage (every other chunk then carries `usage: null`). The caller
 * adds the final `[DONE]`.
 */
export function completionChunks(reply: ResponderReply, model: string, includeUsage: boolean): Obj[] {
  const base: Obj = {
    id: completionId(reply),
    object: 'chat.completion.chunk',
    created: LOCAL_CREATED,
    model,
    system_fingerprint: LOCAL_FINGERPRINT,
  };
  const chunk = (delta: Obj, finish: string | null = null): Obj => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: Obj[] = [];
  const call = reply.toolCalls[0];
  if (call) {
    const head = { index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    chunks.push(chunk({ role: 'assistant', content: null, tool_calls: [head] }));
    for (const piece of streamPieces(call.arguments))
      chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  } else {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const piece of streamPieces(reply.content ?? '')) chunks.push(chunk({ content: piece }));
  }
  chunks.push(chunk({}, reply.finishReason));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: usageOf(reply) });
  return chunks;
}

function logprobsOf(reply: ResponderReply, topLogprobs: number | undefined): Obj | null {
  if (topLogprobs === undefined || reply.content === null) return null;
  return wireLogprobs(reply.tokens ?? certainTokens(reply.content), topLogprobs);
}

function completionId(reply: ResponderReply): string {
  return `chatcmpl-${reply.key.slice(0, 29)}`;
}

function usageOf(reply: ResponderReply): Obj {
  return {
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    total_tokens: reply.promptTokens + reply.completionTokens,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}
