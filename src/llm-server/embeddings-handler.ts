import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { hashedEmbedding, LOCAL_EMBEDDING_DIMENSIONS } from './hashed-embedding.ts';
import { errorBody, readBody, sendError, sendJson } from './http-io.ts';
import { countTokens } from './tokenizer.ts';

const embeddingsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1).max(2048)], {
    error:
      'input must be a string or an array of strings (token arrays are not supported by the local server)',
  }),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  dimensions: z.number().int().min(2).max(4096).nullish(),
});

/** The vector as OpenAI's `base64` encoding: little-endian float32 values. */
function base64Of(v: readonly number[]): string {
  return Buffer.from(new Float32Array(v).buffer).toString('base64');
}

/**
 * Handles `POST /v1/embeddings` (OpenAI's shape): one {@link hashedEmbedding} per input text,
 * as floats or, with `encoding_format: "base64"` (what the OpenAI SDK asks for by default),
 * as base64 float32; `dimensions` sets the length (default {@link LOCAL_EMBEDDING_DIMENSIONS}).
 * Usage counts the inputs' tokens by the server's tokenizer. Bad bodies get a 400.
 */
export async function handleEmbeddings(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const text = await readBody(req).catch(() => undefined);
  if (text === undefined) return;
  if (text === null) {
    sendError(res, 413, errorBody('Request body too large.', 'invalid_request_error', 'request_too_large'));
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    sendError(
      res,
      400,
      errorBody('We could not parse the JSON body of your request.', 'invalid_request_error', 'invalid_json'),
    );
    return;
  }
  const parsed = embeddingsRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue.path.map(String).join('.') || null;
    sendError(
      res,
      400,
      errorBody(
        `Invalid request body: ${issue.message}`,
        'invalid_request_error',
        'invalid_request_body',
        param,
      ),
    );
    return;
  }
  const body = parsed.data;
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  const dims = body.dimensions ?? LOCAL_EMBEDDING_DIMENSIONS;
  const data = inputs.map((input, index) => {
    const v = hashedEmbedding(input, dims);
    return { object: 'embedding', index, embedding: body.encoding_format === 'base64' ? base64Of(v) : v };
  });
  const tokens = inputs.reduce((s, input) => s + countTokens(input), 0);
  sendJson(res, 200, {
    object: 'list',
    data,
    model: body.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}
