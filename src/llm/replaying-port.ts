import { canonicalJson } from '../core/index.ts';
import { LlmCallError, ReplayMismatchError } from './llm-errors.ts';
import type { ChatMessage, LlmPort, LlmReply, LlmRequest } from './port.ts';
import { promptHash } from './prompt-hash.ts';
import { attemptsOf, cachedOf, type LlmCallRecord } from './recording-port.ts';

/** A difference between a request and its recording. */
interface Difference {
  text: string;
  messageIndex?: number;
}

const EXCERPT = 30;

/**
 * Serves recorded replies instead of calling a model: one queue per caller, in recording
 * order. Each request must match its recording (tick, purpose, params and messages); if it
 * does not, or the caller has no recording left, a {@link ReplayMismatchError} names the
 * caller, the tick and the first difference. A recorded failure is thrown again as the same
 * {@link LlmCallError}. It has no inner port: a replay never opens a connection.
 */
export class ReplayingPort implements LlmPort {
  private readonly queues = new Map<string, LlmCallRecord[]>();
  private readonly served = new Map<string, number>();

  constructor(records: readonly LlmCallRecord[]) {
    for (const record of records) {
      const queue = this.queues.get(record.caller);
      if (queue) queue.push(record);
      else this.queues.set(record.caller, [record]);
    }
  }

  /** Recorded calls not served yet, per caller (sorted by caller); empty when all were used. */
  unused(): Array<{ caller: string; count: number }> {
    return [...this.queues.entries()]
      .filter(([, q]) => q.length > 0)
      .map(([caller, q]) => ({ caller, count: q.length }))
      .sort((a, b) => (a.caller < b.caller ? -1 : a.caller > b.caller ? 1 : 0));
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const record = this.queues.get(request.caller)?.shift();
    const where = `caller ${JSON.stringify(request.caller)} at tick ${request.tick} (${request.purpose})`;
    if (!record) {
      const n = this.served.get(request.caller) ?? 0;
      throw new ReplayMismatchError(
        `replay diverged: ${where} made an LLM call, but the recording has no more calls for it (${n} recorded, all served)`,
        { caller: request.caller, tick: request.tick },
      );
    }
    this.served.set(request.caller, (this.served.get(request.caller) ?? 0) + 1);
    // Same hash of (params, messages) at the same tick and purpose: nothing to compare in detail.
    const same =
      request.promptHash !== undefined &&
      request.promptHash === record.promptHash &&
      record.tick === request.tick &&
      record.purpose === request.purpose;
    const diff = same ? undefined : firstDifference(record, request);
    if (diff)
      throw new ReplayMismatchError(`replay diverged: ${where}: ${diff.text}`, {
        caller: request.caller,
        tick: request.tick,
        messageIndex: diff.messageIndex,
      });
    return replyOf(record);
  }
}

function replyOf(record: LlmCallRecord): LlmReply {
  const attempts = attemptsOf(record).map((a) => ({ ...a }));
  // an old log's line that hashes its attempts is written back the same way
  const attemptsInDigest = record.attempts.length > 0;
  if (record.reply === null) {
    const e = record.error ?? {
      kind: 'other' as const,
      message: 'LLM call failed (recorded without details)',
    };
    throw new LlmCallError(e.kind, e.message, { status: e.status, attempts, attemptsInDigest });
  }
  const { text, usage, model, logprobs } = record.reply;
  const reply: LlmReply = { text, usage: { ...usage }, model, attempts, cached: cachedOf(record) };
  if (attemptsInDigest) reply.attemptsInDigest = true;
  // likewise an old log's line that hashes `cached: true`
  if (record.cached === true) reply.cachedInDigest = true;
  if (logprobs) reply.logprobs = logprobs;
  return reply;
}

function firstDifference(record: LlmCallRecord, request: LlmRequest): Difference | undefined {
  if (record.tick !== request.tick) return { text: `the recorded call was made at tick ${record.tick}` };
  if (record.purpose !== request.purpose)
    return { text: `the recorded call had purpose ${JSON.stringify(record.purpose)}` };
  const params = paramsDifference(record, request);
  if (params) return { text: params };
  if (!Array.isArray(record.messages))
    return promptHash(request.params, request.messages) === record.promptHash
      ? undefined
      : { text: `the prompt hash differs from the recorded ${record.promptHash.slice(0, 12)}` };
  return messagesDifference(record.messages, request.messages);
}

function paramsDifference(record: LlmCallRecord, request: LlmRequest): string | undefined {
  const rec = record.params as unknown as Record<string, unknown>;
  const got = request.params as unknown as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(rec), ...Object.keys(got)])].sort();
  for (const key of keys) {
    const a = rec[key] === undefined ? 'unset' : canonicalJson(rec[key]);
    const b = got[key] === undefined ? 'unset' : canonicalJson(got[key]);
    if (a !== b) return `params.${key} differs: expected ${clip(a)}, got ${clip(b)}`;
  }
  return undefined;
}

function messagesDifference(
  expected: readonly ChatMessage[],
  actual: readonly ChatMessage[],
): Difference | undefined {
  const n = Math.min(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const a = actual[i];
    if (e.role !== a.role)
      return { messageIndex: i, text: `message ${i} has role ${a.role}, the recording has ${e.role}` };
    if (e.content !== a.content)
      return { messageIndex: i, text: contentDifference(i, e.role, e.content, a.content) };
  }
  if (expected.length === actual.length) return undefined;
  const extra = expected.length > actual.length ? expected[n] : actual[n];
  const which = expected.length > actual.length ? 'is missing' : 'is extra';
  return {
    messageIndex: n,
    text: `message ${n} (${extra.role}) ${which}: recorded ${expected.length} messages, got ${actual.length}; it reads ${excerpt(extra.content, 0)}`,
  };
}

function contentDifference(index: number, role: string, expected: string, actual: string): string {
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  return `message ${index} (${role}) differs at character ${at}: expected ${excerpt(expected, at)}, got ${excerpt(actual, at)}`;
}

/** Up to {@link EXCERPT} characters either side of `at`, JSON-quoted, with `...` where cut. */
function excerpt(text: string, at: number): string {
  const start = Math.max(0, at - EXCERPT);
  const end = Math.min(text.length, at + EXCERPT);
  return `${start > 0 ? '...' : ''}${JSON.stringify(text.slice(start, end))}${end < text.length ? '...' : ''}`;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}...` : s;
}
