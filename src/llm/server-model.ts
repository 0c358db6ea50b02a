import { ConfigError } from '../core/index.ts';
import { type LlmConfig, safeUrl } from './llm-config.ts';

/** Most milliseconds the model list may take, and most bytes of its reply. */
const LIST_TIMEOUT_MS = 5_000;
const MAX_LIST_BYTES = 1 << 20;
/** Longest model id taken from a server's list. */
const MAX_MODEL_ID = 256;

function noModel(url: string, why: string): never {
  throw new ConfigError(`name a model with --model (the server at ${safeUrl(url)} lists none: ${why})`, {
    hint: 'pass --model NAME (or set GRAPEVINE_MODEL) with a model the server serves',
  });
}

/** The body of a reply, at most {@link MAX_LIST_BYTES}; undefined when it is longer. */
async function boundedText(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
): Promise<string | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of body) {
    size += part.byteLength;
    if (size > MAX_LIST_BYTES) {
      body.destroy();
      return undefined;
    }
    parts.push(part);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** What a failed request says: its system error code (ECONNREFUSED, ENOTFOUND), else its message. */
function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; message?: unknown; name?: unknown };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return `no answer within ${LIST_TIMEOUT_MS / 1000} s`;
  return String(e.code ?? e.cause?.code ?? e.message ?? err);
}

/** The first model id of an OpenAI-style list (`{data: [{id}]}`), checked as untrusted JSON. */
function firstModelId(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const data = (body as { data?: unknown } | null)?.data;
  const id = Array.isArray(data) ? (data[0] as { id?: unknown } | undefined)?.id : undefined;
  // printable, without spaces: a model id as a request names it
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_MODEL_ID && /^[\x21-\x7e]+$/.test(id)
    ? id
    : undefined;
}

/**
 * The configuration with its model, when it named none for an endpoint other than OpenAI's
 * (`modelFrom: 'listed'`): the first model the server lists at `GET <base URL>/models`,
 * asked once within {@link LIST_TIMEOUT_MS}, its reply held to {@link MAX_LIST_BYTES} and
 * read as untrusted JSON (an endpoint pool: the first of its servers that lists one). A
 * configuration that names its model is returned as it is.
 * @throws ConfigError "name a model with --model" when the server lists none or cannot be asked.
 */
export async function withServerModel(config: LlmConfig): Promise<LlmConfig> {
  if (config.modelFrom !== 'listed' || config.model !== '') return config;
  const bases = config.baseURLs ?? (config.baseURL ? [config.baseURL] : []);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey.reveal()}`;
  let first: unknown;
  // an endpoint pool: the first of its servers that answers (a dead one may be listed first)
  for (const base of bases) {
    try {
      return { ...config, model: await listedModel(base, headers) };
    } catch (err) {
      first ??= err;
    }
  }
  throw first;
}

/** The first model the server at `base` lists. @throws ConfigError when it lists none or cannot be asked. */
async function listedModel(base: string, headers: Record<string, string>): Promise<string> {
  let text: string | undefined;
  try {
    // undici's request, not fetch: fetch refuses some ports (9, 6000...) a local server may use
    const { request } = await import('undici');
    const res = await request(`${base}/models`, { headers, signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
    if (res.statusCode !== 200) {
      await res.body.dump().catch(() => {});
      noModel(base, `GET /models answered ${res.statusCode}`);
    }
    text = await boundedText(res.body);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    noModel(base, `GET /models failed (${reasonOf(err)})`);
  }
  if (text === undefined) noModel(base, `its model list is over ${MAX_LIST_BYTES} bytes`);
  const model = firstModelId(text);
  if (!model) noModel(base, 'GET /models named no model');
  return model;
}
