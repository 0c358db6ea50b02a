import { readFileSync } from 'node:fs';
import { UsageError } from '../core/index.ts';

/** How to reach a queue: the server address, and the credentials and TLS settings to connect with. */
export interface NatsEndpoint {
  /** `host:port`, without scheme or credentials. */
  server: string;
  /** The URL as it may be printed: credentials replaced by `***`. */
  shown: string;
  user?: string;
  pass?: string;
  token?: string;
  /** The bytes of a NATS credentials file (a user JWT and its nkey seed). */
  creds?: Uint8Array;
  /** Set when the connection must be TLS (`tls://` or a CA file given). */
  tls?: { caFile?: string };
}

/** Environment variables read for the queue's credentials (never printed). */
export const NATS_ENV = {
  user: 'GRAPEVINE_NATS_USER',
  password: 'GRAPEVINE_NATS_PASSWORD',
  token: 'GRAPEVINE_NATS_TOKEN',
  creds: 'GRAPEVINE_NATS_CREDS',
  ca: 'GRAPEVINE_NATS_CA',
} as const;

const URL_FORM = /^(nats|tls):\/\/(?:([^@/\s]*)@)?([^@/\s]+)$/;

/**
 * A URL with any `user:password@` or `token@` part replaced by `***@`, for messages and
 * banners. Text that is not such a URL is returned with everything before an `@` hidden.
 */
export function redactQueueUrl(url: string): string {
  const m = URL_FORM.exec(url);
  if (m) return `${m[1]}://${m[2] === undefined ? '' : '***@'}${m[3]}`;
  const at = url.lastIndexOf('@');
  return at < 0 ? url : `***${url.slice(at)}`;
}

/**
 * Parses `--queue`: `nats://HOST:PORT` or `tls://HOST:PORT` (TLS required), with optional
 * `user:password@` or `token@` (percent-encoded), and the credentials of the environment
 * ({@link NATS_ENV}: user and password, a token, a credentials file for nkeys/JWT, a CA
 * file that also turns TLS on). Credentials never appear in {@link NatsEndpoint.shown}.
 * @throws UsageError (exit 2) naming the flag, with the URL redacted.
 */
export function parseQueueUrl(url: string, env: NodeJS.ProcessEnv = process.env): NatsEndpoint {
  const m = URL_FORM.exec(url);
  if (!m)
    throw new UsageError(
      `--queue must be nats://HOST:PORT or tls://HOST:PORT, got "${redactQueueUrl(url)}"`,
      {
        hint: 'e.g. --queue nats://127.0.0.1:4222 (credentials: GRAPEVINE_NATS_USER and GRAPEVINE_NATS_PASSWORD)',
      },
    );
  const [, scheme, auth, server] = m;
  const out: NatsEndpoint = { server, shown: redactQueueUrl(url) };
  if (auth !== undefined) Object.assign(out, urlCredentials(auth));
  const user = env[NATS_ENV.user];
  const password = env[NATS_ENV.password];
  if (user && out.user === undefined) Object.assign(out, { user, pass: password ?? '' });
  if (env[NATS_ENV.token] && out.token === undefined && out.user === undefined)
    out.token = env[NATS_ENV.token];
  const credsFile = env[NATS_ENV.creds];
  if (credsFile) out.creds = readCredentialFile(NATS_ENV.creds, credsFile);
  const ca = env[NATS_ENV.ca];
  if (scheme === 'tls' || ca) out.tls = ca ? { caFile: ca } : {};
  return out;
}

function urlCredentials(auth: string): Pick<NatsEndpoint, 'user' | 'pass' | 'token'> {
  const colon = auth.indexOf(':');
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw new UsageError('--queue: the credentials in the URL are not valid percent-encoding', {
        hint: 'percent-encode special characters, or use GRAPEVINE_NATS_USER and GRAPEVINE_NATS_PASSWORD',
      });
    }
  };
  if (colon < 0) return { token: decode(auth) };
  return { user: decode(auth.slice(0, colon)), pass: decode(auth.slice(colon + 1)) };
}

function readCredentialFile(variable: string, path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (cause) {
    throw new UsageError(`${variable}: cannot read the credentials file ${path}`, {
      cause,
      hint: 'give the path of a NATS .creds file (nsc generate creds)',
    });
  }
}
