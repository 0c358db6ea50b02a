import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Largest request body the server reads, in bytes (larger ones get a 413). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** The error body shape of the OpenAI API. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Builds an error body in the OpenAI shape. */
export function errorBody(
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): OpenAiErrorBody {
  return { error: { message, type, param, code } };
}

/**
 * Reads the whole request body as UTF-8. Resolves `null` when it exceeds
 * {@link MAX_BODY_BYTES} (the rest is drained and discarded); rejects when the client goes away.
 */
export function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Sends `body` as JSON with `status` and extra headers. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  sendRaw(res, status, JSON.stringify(body), headers);
}

/** Sends a JSON content type with a raw (possibly broken) body. */
export function sendRaw(
  res: ServerResponse,
  status: number,
  text: string,
  headers: OutgoingHttpHeaders = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const payload = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': payload.length,
    ...headers,
  });
  res.end(payload);
}

/** Sends an OpenAI-shaped error. */
export function sendError(
  res: ServerResponse,
  status: number,
  error: OpenAiErrorBody,
  headers: OutgoingHttpHeaders = {},
): void {
  sendJson(res, status, error, headers);
}

/** Sends server-sent events: one `data: <payload>` event per entry, then ends the response. */
export function sendEvents(
  res: ServerResponse,
  payloads: readonly string[],
  headers: OutgoingHttpHeaders = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
  for (const payload of payloads) res.write(`data: ${payload}\n\n`);
  res.end();
}
