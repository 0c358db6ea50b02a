import { z } from 'zod';
import type { Json } from '../core/index.ts';
import { parseJsonLenient } from './json-repair.ts';
import { LlmCallError } from './llm-errors.ts';
import type { LlmParams, LlmPort, LlmReply, LlmRequest } from './port.ts';

/** Something that counts fallbacks for the run summary (e.g. the stack's counters). */
export interface FallbackCounter {
  fallbacks: number;
}

/** Options of {@link decideStructured}. */
export interface StructuredOptions<T> {
  /** The value used when no valid reply came (e.g. a no-op action). */
  fallback: T;
  /** Re-asks after an invalid reply (default 2, so at most 3 calls). */
  retries?: number;
  /** Incremented on each fallback. */
  counters?: FallbackCounter;
  /** Schema name sent with `json_schema` when the request has no `params.json` (default `reply`). */
  name?: string;
}

/** What {@link decideStructured} returns: a valid value, or the fallback and why. */
export type StructuredResult<T> =
  | { value: T; fallback: false; reply: LlmReply; errors: string[] }
  | { value: T; fallback: true; errors: string[] };

/**
 * Asks for a JSON reply and validates it with `schema`. The reply is parsed leniently
 * (fences, surrounding prose, trailing commas, single quotes); when it is still unusable,
 * the model is re-asked (a new call, recorded like any other, showing its previous reply and
 * the problem) up to `retries` times. If no valid reply comes, or the call fails for good
 * ({@link LlmCallError}), it returns the fallback instead of throwing: one bad reply never
 * kills a run. Budget and replay errors are not swallowed.
 */
export async function decideStructured<T>(
  port: LlmPort,
  request: LlmRequest,
  schema: z.ZodType<T>,
  options: StructuredOptions<T>,
): Promise<StructuredResult<T>> {
  const first: LlmRequest = { ...request, params: withJson(request.params, schema, options.name ?? 'reply') };
  const retries = Math.max(0, options.retries ?? 2);
  const errors: string[] = [];
  let current = first;
  for (let n = 0; n <= retries; n++) {
    let reply: LlmReply;
    try {
      reply = await port.complete(current);
    } catch (err) {
      if (!(err instanceof LlmCallError)) throw err;
      errors.push(`call ${n + 1}: ${err.message}`);
      break;
    }
    const problem = validate(reply.text, schema);
    if (problem.ok) return { value: problem.value, fallback: false, reply, errors };
    errors.push(`call ${n + 1}: ${problem.error}`);
    current = reask(first, reply.text, problem.error, n + 1);
  }
  if (options.counters) options.counters.fallbacks++;
  return { value: options.fallback, fallback: true, errors };
}

function validate<T>(
  text: string,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; error: string } {
  const parsed = parseJsonLenient(text);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const result = schema.safeParse(parsed.value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`);
  return { ok: false, error: `does not match the schema: ${issues.join('; ')}` };
}

/** The params with JSON mode on: the request's own `json`, else the zod schema's JSON Schema. */
function withJson(params: LlmParams, schema: z.ZodType, name: string): LlmParams {
  if (params.json) return params;
  return { ...params, json: { name, schema: jsonSchemaOf(schema) } };
}

// Converting a zod schema costs microseconds per call; schemas are immutable, so convert each once.
const jsonSchemas = new WeakMap<z.ZodType, Record<string, Json>>();

/** JSON Schema of a zod schema, or `{}` (plain JSON-object mode) when it has none. */
function jsonSchemaOf(schema: z.ZodType): Record<string, Json> {
  let out = jsonSchemas.get(schema);
  if (out) return out;
  try {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema) as Record<string, Json>;
    out = rest;
  } catch {
    out = {};
  }
  jsonSchemas.set(schema, out);
  return out;
}

/** The first request plus the bad reply and a correction: the model sees what was wrong. */
function reask(first: LlmRequest, badText: string, problem: string, n: number): LlmRequest {
  const schema = first.params.json?.schema ?? {};
  const shape = Object.keys(schema).length > 0 ? JSON.stringify(schema) : '';
  const schemaHint = shape && shape.length <= 2000 ? ` matching this JSON Schema: ${shape}` : '';
  return {
    ...first,
    purpose: `${first.purpose}:reask${n}`,
    messages: [
      ...first.messages,
      { role: 'assistant', content: badText },
      {
        role: 'user',
        content: `Your reply could not be used (${problem}). Reply again with only a JSON object${schemaHint}, and nothing else.`,
      },
    ],
  };
}
