import { inspect } from 'node:util';

/** What a secret is replaced with in anything a user or a log can see. */
export const REDACTED_KEY = 'sk-***';

/**
 * An API key that cannot leak by accident: `String(key)`, `JSON.stringify`, canonical JSON and
 * `util.inspect` all show {@link REDACTED_KEY} (or nothing); only {@link ApiKey.reveal} gives the
 * value, and only the HTTP client should call it.
 */
export class ApiKey {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The real key. Pass it to the HTTP client and nowhere else. */
  reveal(): string {
    return this.#value;
  }

  /** Always {@link REDACTED_KEY}. */
  toString(): string {
    return REDACTED_KEY;
  }

  /** Always {@link REDACTED_KEY}, so a config serialised to JSON carries no key. */
  toJSON(): string {
    return REDACTED_KEY;
  }

  /** Shown by `console.log` and `util.inspect`. */
  [inspect.custom](): string {
    return `ApiKey(${REDACTED_KEY})`;
  }
}

/** Accepts a plain string or an {@link ApiKey}; returns the raw value. */
export function revealKey(key: string | ApiKey): string {
  return typeof key === 'string' ? key : key.reveal();
}

// Bearer tokens and anything shaped like an OpenAI-style key (sk-..., sk-proj-...).
const KEY_PATTERNS = [/\bBearer\s+[A-Za-z0-9._~+/=-]{6,}/g, /\bsk-[A-Za-z0-9_-]{6,}/g];

/**
 * Replaces every occurrence of the given secrets, and of anything that looks like an API key
 * or a bearer token, with {@link REDACTED_KEY}. Use it on every message that leaves the HTTP
 * layer.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED_KEY);
  for (const pattern of KEY_PATTERNS)
    out = out.replace(pattern, (m) => (m.startsWith('Bearer') ? `Bearer ${REDACTED_KEY}` : REDACTED_KEY));
  return out;
}
