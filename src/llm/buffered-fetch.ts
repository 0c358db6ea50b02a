import type * as Undici from 'undici';

/**
 * What the OpenAI SDK reads of a `Response` on the non-streaming path: status, headers, the
 * body once as text or JSON (and `body` only to cancel it before a retry, which it skips
 * when it is null).
 */
interface BufferedResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly redirected: false;
  readonly headers: Headers;
  readonly body: null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** UTF-8 with a leading BOM dropped and bad bytes replaced, as `Response.text()` decodes. */
const utf8 = new TextDecoder('utf-8');

/**
 * A `fetch` for the OpenAI SDK's non-streaming calls (`ChatOpenAI` with `streaming: false`),
 * built on undici's `request` over one keep-alive connection pool. Node's global `fetch` is
 * the same undici behind the WHATWG layer (web streams, `Request`/`Response` objects, header
 * validation), which cost about 0.6 ms of CPU per chat call, more than the rest of the client;
 * this one sends the SDK's request as it is and hands back a plain object with the fields the
 * SDK reads. Failures look as they do with `fetch`, so recorded error messages are unchanged:
 * a request that fails rejects with `TypeError('fetch failed')` with the cause below it, a
 * body that breaks off after the headers rejects `text()`/`json()` with
 * `TypeError('terminated')`, an abort rejects with the signal's reason. Not for streaming
 * replies (`body` is null) nor redirects (chat endpoints answer where they are asked).
 * `undici` is passed in: its import costs ~0.2 s, which only live calls should pay.
 */
export function bufferedFetch(undici: Pick<typeof Undici, 'Agent' | 'request'>): typeof fetch {
  const { request } = undici;
  const dispatcher = new undici.Agent();
  const fetchLike = async (
    input: string | URL | Request,
    init: RequestInit = {},
  ): Promise<BufferedResponse> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, {
        method: (init.method ?? 'GET') as 'GET',
        headers: init.headers as Iterable<[string, string]> | Record<string, string> | undefined,
        body: init.body as string | Uint8Array | null | undefined,
        signal: init.signal ?? undefined,
        dispatcher,
      });
    } catch (err) {
      throw init.signal?.aborted
        ? (init.signal.reason ?? err)
        : new TypeError('fetch failed', { cause: err });
    }
    // Read now, settle later: like fetch, a broken body fails the read, not the fetch.
    const text = res.body.arrayBuffer().then(
      (bytes) => utf8.decode(bytes),
      (err: unknown) => {
        throw init.signal?.aborted
          ? (init.signal.reason ?? err)
          : new TypeError('terminated', { cause: err });
      },
    );
    text.catch(() => {}); // rejections surface when text()/json() is called
    const headers = new Headers();
    for (const name in res.headers) {
      const value = res.headers[name];
      if (typeof value === 'string') headers.append(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    }
    const status = res.statusCode;
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: res.statusText ?? '',
      url,
      redirected: false,
      headers,
      body: null,
      text: () => text,
      json: async () => JSON.parse(await text),
    };
  };
  return fetchLike as unknown as typeof fetch;
}
