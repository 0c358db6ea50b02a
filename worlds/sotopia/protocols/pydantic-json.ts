import type { z } from 'zod';
import type { ParseResult } from './reading.ts';

/**
 * How Sotopia's JSON replies were read: LangChain's `PydanticOutputParser.parse` of the
 * version Sotopia pinned (langchain 0.0.x) takes the text from the first `{` to the last `}`
 * (greedy, across lines), loads it with `json.loads(..., strict=False)` (raw control
 * characters allowed inside strings) and validates it with the pydantic model. This is that
 * rule: no repair of fences' contents, quotes or commas (Sotopia's repair is a model call).
 */
export function parsePydanticJson<T>(text: string, schema: z.ZodType<T>): ParseResult<T> {
  const m = /\{[\s\S]*\}/.exec(text.trim());
  if (!m) return { ok: false, error: 'no JSON object in the reply' };
  let value: unknown;
  try {
    value = JSON.parse(escapeControlInStrings(m[0]));
  } catch (err) {
    return { ok: false, error: `not JSON: ${(err as Error).message}` };
  }
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, error: `does not match the format: ${issues.join('; ')}` };
}

/** Escapes raw control characters inside string literals (what `strict=False` accepts). */
export function escapeControlInStrings(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString && c === '\\') {
      out += c + (json[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') inString = !inString;
    const code = c.charCodeAt(0);
    out += inString && code < 0x20 ? `\\u${code.toString(16).padStart(4, '0')}` : c;
  }
  return out;
}
