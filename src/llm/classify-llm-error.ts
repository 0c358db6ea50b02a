import { redactSecrets } from './api-key.ts';
import { LlmCallError, type LlmErrorKind } from './llm-errors.ts';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

type ErrorLike = {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  code?: unknown;
  cause?: unknown;
  headers?: unknown;
  retryAfterMs?: unknown;
};

/**
 * Maps whatever the OpenAI client or LangChain threw to an {@link LlmCallError}. Every text
 * copied from the original error (and its cause chain) goes through {@link redactSecrets};
 * the original error is not attached, only a redacted copy of its text.
 */
export function toLlmCallError(err: unknown, secrets: readonly string[]): LlmCallError {
  if (err instanceof LlmCallError) return err;
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as ErrorLike;
  const status = typeof e.status === 'number' ? e.status : undefined;
  const kind = classify(e, status);
  const chain = redactSecrets(describeChain(e), secrets);
  const detail =
    kind === 'malformed' && e.name === 'TypeError'
      ? `the reply body is not a chat completion (${chain})`
      : chain;
  const retryAfterMs = kind === 'http-429' ? retryAfterFrom(e) : undefined;
  const label = status === undefined ? kind : `${kind}, status ${status}`;
  return new LlmCallError(kind, `LLM call failed (${label}): ${detail}`, {
    status,
    retryAfterMs,
    cause: new Error(detail),
  });
}

function classify(e: ErrorLike, status: number | undefined): LlmErrorKind {
  const ctor = (e as object).constructor?.name ?? '';
  if (status !== undefined) {
    if (status === 429) return 'http-429';
    if (status === 408) return 'timeout';
    if (status >= 500) return 'http-5xx';
    if (status >= 400) return 'http-4xx';
  }
  if (e.name === 'TimeoutError' || ctor === 'APIConnectionTimeoutError') return 'timeout';
  if (ctor === 'SyntaxError' || e.name === 'SyntaxError' || ctor === 'LengthFinishReasonError')
    return 'malformed';
  if (ctor === 'APIConnectionError' || chainHasConnectionCode(e)) return 'connection';
  if (e.name === 'TypeError' && /fetch failed|terminated|socket/i.test(String(e.message)))
    return 'connection';
  // The client read fields of a body that is not a chat completion (empty, `{}`, plain text).
  if (e.name === 'TypeError' && /of (undefined|null)/.test(String(e.message))) return 'malformed';
  return 'other';
}

function chainHasConnectionCode(e: ErrorLike): boolean {
  let cur: unknown = e;
  for (let depth = 0; depth < 5 && typeof cur === 'object' && cur !== null; depth++) {
    const c = cur as ErrorLike;
    if (typeof c.code === 'string' && CONNECTION_CODES.has(c.code)) return true;
    if (typeof c.message === 'string' && /other side closed|socket hang up/i.test(c.message)) return true;
    cur = c.cause;
  }
  return false;
}

/** First line of each message down the cause chain, with error codes: `Connection error. <- fetch failed <- ECONNREFUSED`. */
function describeChain(e: ErrorLike): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; depth < 4 && typeof cur === 'object' && cur !== null; depth++) {
    const c = cur as ErrorLike;
    const msg = typeof c.message === 'string' ? (c.message.split('\n')[0] ?? '').trim() : '';
    const code = typeof c.code === 'string' && !msg.includes(c.code) ? c.code : '';
    const part = [msg, code].filter(Boolean).join(' ');
    if (part && !parts.includes(part)) parts.push(part.length > 300 ? `${part.slice(0, 300)}...` : part);
    cur = c.cause;
  }
  return parts.join(' <- ') || 'unknown error';
}

/** Reads `retry-after-ms` (OpenAI) or `retry-after` (seconds or HTTP date) from the error's headers. */
function retryAfterFrom(e: ErrorLike): number | undefined {
  const ms = header(e.headers, 'retry-after-ms');
  if (ms !== undefined && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const after = header(e.headers, 'retry-after');
  if (after !== undefined) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(after);
    // An HTTP-date retry-after is relative to now; it only sets a back-off.
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now()); // wall-clock-ok: retry-after date
  }
  return typeof e.retryAfterMs === 'number' ? e.retryAfterMs : undefined;
}

function header(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const h = headers as { get?: (n: string) => string | null } & Record<string, unknown>;
  const v = typeof h.get === 'function' ? h.get(name) : (h[name] ?? h[name.toLowerCase()]);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
