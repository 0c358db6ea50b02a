import { DivergenceError, GrapevineError } from '../core/index.ts';
import type { LlmAttempt, TokenUsage } from './port.ts';

/**
 * Why an LLM call failed. `http-429`, `http-5xx`, `timeout`, `connection` and `malformed`
 * are transient and retried; `http-4xx` (bad request, auth, unknown model) and `other`
 * are not.
 */
export type LlmErrorKind =
  | 'http-429'
  | 'http-5xx'
  | 'http-4xx'
  | 'timeout'
  | 'connection'
  | 'malformed'
  | 'other';

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set([
  'http-429',
  'http-5xx',
  'timeout',
  'connection',
  'malformed',
]);

/** True when a failure of this kind is worth another attempt. */
export function isRetryableKind(kind: LlmErrorKind): boolean {
  return RETRYABLE.has(kind);
}

const HINTS: Record<LlmErrorKind, string> = {
  'http-429':
    'The endpoint is rate limiting: lower --llm-concurrency or the requests/tokens per minute limits.',
  'http-5xx': 'The endpoint had a server error; check that it is healthy and retry.',
  'http-4xx':
    'The endpoint rejected the request: check the model name, the API key (OPENAI_API_KEY) and the base URL.',
  timeout: 'The endpoint did not answer in time; raise the timeout or check that it is reachable.',
  connection:
    'Could not reach the endpoint: check --llm-base-url / OPENAI_BASE_URL and that the server is running.',
  malformed:
    'The endpoint answered with something that is not a usable reply (bad body or unparseable JSON).',
  other: 'An unexpected error happened while calling the LLM endpoint.',
};

/** Options of {@link LlmCallError}. */
export interface LlmCallErrorOptions {
  /** HTTP status, when there was a response. */
  status?: number;
  /** Delay the server asked for (`retry-after-ms` / `retry-after`), in ms. */
  retryAfterMs?: number;
  /** Failed attempts so far (filled by the retry layer). */
  attempts?: LlmAttempt[];
  /** See `LlmReply.attemptsInDigest`: set only by a replay of an old log. */
  attemptsInDigest?: boolean;
  /** Tokens billed for a reply that was received but discarded (malformed JSON). */
  usage?: TokenUsage;
  /** A sanitised cause (never the raw client error: it could carry request details). */
  cause?: unknown;
  /** Overrides the default hint of the kind. */
  hint?: string;
}

/**
 * A call to the LLM endpoint failed. Its message never contains an API key: the layer that
 * builds it redacts every text it copies from the client error.
 */
export class LlmCallError extends GrapevineError {
  /** What went wrong, in the retry layer's terms. */
  readonly kind: LlmErrorKind;
  /** HTTP status, when there was a response. */
  readonly status: number | undefined;
  /** Delay the server asked for, in ms. */
  readonly retryAfterMs: number | undefined;
  /** Every failed attempt, including the last one. */
  readonly attempts: LlmAttempt[];
  /** Tokens billed for a reply that was received but discarded (malformed JSON). */
  readonly usage: TokenUsage | undefined;
  /** See `LlmReply.attemptsInDigest`: set only by a replay of an old log. */
  readonly attemptsInDigest: boolean;

  constructor(kind: LlmErrorKind, message: string, opts: LlmCallErrorOptions = {}) {
    super('E_LLM', message, { hint: opts.hint ?? HINTS[kind], cause: opts.cause, exitCode: 1 });
    this.kind = kind;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
    this.attempts = opts.attempts ?? [];
    this.usage = opts.usage;
    this.attemptsInDigest = opts.attemptsInDigest === true;
  }

  /** True when another attempt may succeed. */
  get retryable(): boolean {
    return isRetryableKind(this.kind);
  }

  /** The label recorded in {@link LlmAttempt.error}: `http-<status>` when known, else the kind. */
  get label(): string {
    return this.status === undefined ? this.kind : `http-${this.status}`;
  }

  /** A copy carrying the given attempts. */
  withAttempts(attempts: LlmAttempt[], message = this.message): LlmCallError {
    return new LlmCallError(this.kind, message, {
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      attempts,
      usage: this.usage,
      cause: this.cause,
      hint: this.hint,
      attemptsInDigest: this.attemptsInDigest,
    });
  }
}

/** The per-run token or money budget is spent. Exit 1; the engine stops at a tick boundary. */
export class BudgetExceededError extends GrapevineError {
  constructor(message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super('E_BUDGET', message, {
      hint: opts.hint ?? 'Raise the budget (tokens or USD) or use a cheaper model.',
      cause: opts.cause,
      exitCode: 1,
    });
  }
}

/** Where a replay diverged from its recording. */
export interface ReplayMismatchDetail {
  caller: string;
  tick: number;
  /** Index of the first differing message, when the difference is in a message. */
  messageIndex?: number;
}

/**
 * A replayed run asked the model something other than what the recording holds (or asked
 * more often). Code `E_DIVERGED`, exit 1; a {@link DivergenceError}, positioned at the tick.
 */
export class ReplayMismatchError extends DivergenceError {
  /** Who asked. */
  readonly caller: string;
  /** Index of the first differing message, when the difference is in a message. */
  readonly messageIndex: number | undefined;

  constructor(message: string, detail: ReplayMismatchDetail, opts: { hint?: string } = {}) {
    super(
      message,
      { tick: detail.tick },
      {
        hint:
          opts.hint ??
          'The prompt differs from the recording: the world, config or code changed since the run was recorded.',
      },
    );
    this.caller = detail.caller;
    this.messageIndex = detail.messageIndex;
  }
}
