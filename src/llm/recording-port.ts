import { LlmCallError, type LlmErrorKind } from './llm-errors.ts';
import type {
  ChatMessage,
  LlmAttempt,
  LlmParams,
  LlmPort,
  LlmReply,
  LlmRequest,
  TokenLogprob,
  TokenUsage,
} from './port.ts';
import { promptHash } from './prompt-hash.ts';

/** The reply part of an {@link LlmCallRecord}. */
export interface LlmRecordedReply {
  text: string;
  usage: TokenUsage;
  /** Model name the endpoint reported. */
  model: string;
  /** Token log-probabilities, only when the request asked for them (absent otherwise, so older logs keep their digest). */
  logprobs?: TokenLogprob[];
}

/** The failure part of an {@link LlmCallRecord} (its message is already free of secrets). */
export interface LlmRecordedError {
  kind: LlmErrorKind;
  message: string;
  status?: number;
}

/**
 * One LLM call as the replay log keeps it. Everything except `wall` is deterministic given
 * the run's inputs and goes into the log digest; `wall` holds what depends on timing (the
 * latency, the failed attempts), which the digest excludes.
 */
export interface LlmCallRecord {
  caller: string;
  tick: number;
  purpose: string;
  params: LlmParams;
  messages: ChatMessage[];
  /** {@link promptHash} of (params, messages). */
  promptHash: string;
  /** The reply, or `null` when the call failed for good (then `error` says why). */
  reply: LlmRecordedReply | null;
  /** Present only when the call failed after all retries. */
  error?: LlmRecordedError;
  /**
   * Always empty in records made now: which attempts failed (a timeout under load, an
   * endpoint's 500) depends on timing, not on the run's inputs, so the failed attempts live
   * in `wall.attempts`, outside the digest. Logs written before that hold them here, inside
   * the digest, and a replay of such a log writes them here again. Read them with
   * {@link attemptsOf}.
   */
  attempts: LlmAttempt[];
  /**
   * Always false in records made now: whether a reply came from `--llm-cache` or from the
   * model is how the run was done, not what happened (the reply is the same), so a cache hit
   * is marked by `wall.cached`, outside the digest. Logs written before that hold `true`
   * here, inside the digest, and a replay of such a log writes it here again. Read it with
   * {@link cachedOf}.
   */
  cached: boolean;
  /** Wall-clock data, outside the digest: latency, the failed attempts when there were any, `cached` on a cache hit. */
  wall: { latencyMs: number; attempts?: LlmAttempt[]; cached?: true };
}

/** True when a recorded call was served from the reply cache, wherever the record keeps it (see {@link LlmCallRecord.cached}). */
export function cachedOf(record: Pick<LlmCallRecord, 'cached' | 'wall'>): boolean {
  return record.cached === true || record.wall?.cached === true;
}

/** The failed attempts of a recorded call, wherever the record keeps them (see {@link LlmCallRecord.attempts}). */
export function attemptsOf(record: Pick<LlmCallRecord, 'attempts' | 'wall'>): LlmAttempt[] {
  if (record.attempts.length > 0) return record.attempts;
  return record.wall?.attempts ?? [];
}

/** The `attempts` field and the `wall` of a record, with the attempts placed as described at {@link LlmCallRecord.attempts}. */
function placeAttempts(
  attempts: readonly LlmAttempt[],
  inDigest: boolean,
  latencyMs: number,
): Pick<LlmCallRecord, 'attempts' | 'wall'> {
  const copy = attempts.map((a) => ({ ...a }));
  if (inDigest) return { attempts: copy, wall: { latencyMs } };
  return { attempts: [], wall: copy.length > 0 ? { latencyMs, attempts: copy } : { latencyMs } };
}

/** Options of {@link RecordingPort}. */
export interface RecordingOptions {
  /** Milliseconds from any fixed origin, for latency. Defaults to `performance.now`. */
  now?: () => number;
}

/**
 * Hands an {@link LlmCallRecord} of every call to `sink` as soon as the call settles: a reply,
 * or an {@link LlmCallError} after all retries (recorded so that a replay fails the same way,
 * then rethrown). Other errors (budget, replay mismatch) are not calls and are not recorded.
 * Records arrive in completion order: the engine buffers them and writes them in canonical
 * order.
 */
export class RecordingPort implements LlmPort {
  private readonly now: () => number;

  constructor(
    private readonly inner: LlmPort,
    private readonly sink: (record: LlmCallRecord) => void,
    options: RecordingOptions = {},
  ) {
    // Latency is recorded under `wall`, outside the digest.
    this.now = options.now ?? (() => performance.now()); // wall-clock-ok: latency
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const start = this.now();
    // Hashed once here; a replayer below compares it with the recording instead of rehashing.
    const recorded = head(request);
    let reply: LlmReply;
    try {
      reply = await this.inner.complete({ ...request, promptHash: recorded.promptHash });
    } catch (err) {
      if (err instanceof LlmCallError) this.sink(failureRecord(recorded, err, this.latency(start)));
      throw err;
    }
    const latencyMs = this.latency(start);
    const placed = placeAttempts(reply.attempts, reply.attemptsInDigest === true, latencyMs);
    // a cache hit is marked under wall; only a replay of an old log puts it back in the digest
    const cachedInDigest = reply.cached === true && reply.cachedInDigest === true;
    if (reply.cached === true && !cachedInDigest) placed.wall.cached = true;
    this.sink({
      ...recorded,
      reply: {
        text: reply.text,
        usage: { ...reply.usage },
        model: reply.model,
        ...(reply.logprobs ? { logprobs: reply.logprobs } : {}),
      },
      ...placed,
      cached: cachedInDigest,
    });
    return { ...reply, latencyMs };
  }

  private latency(start: number): number {
    return Math.round((this.now() - start) * 1000) / 1000;
  }
}

function head(request: LlmRequest) {
  const params = JSON.parse(JSON.stringify(request.params)) as LlmRequest['params'];
  const messages = request.messages.map((m) => ({ role: m.role, content: m.content }));
  return {
    caller: request.caller,
    tick: request.tick,
    purpose: request.purpose,
    params,
    messages,
    promptHash: promptHash(params, messages),
  };
}

function failureRecord(
  recorded: ReturnType<typeof head>,
  err: LlmCallError,
  latencyMs: number,
): LlmCallRecord {
  const error: LlmRecordedError = { kind: err.kind, message: err.message };
  if (err.status !== undefined) error.status = err.status;
  return {
    ...recorded,
    reply: null,
    error,
    ...placeAttempts(err.attempts, err.attemptsInDigest, latencyMs),
    cached: false,
  };
}
