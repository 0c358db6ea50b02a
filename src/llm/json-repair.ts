import { jsonrepair } from 'jsonrepair';

/** Result of {@link parseJsonLenient}. */
export type LenientParse = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

/** A fixed text, not V8's or jsonrepair's message: it may end up in a prompt, and their wording varies. */
const NOT_JSON = 'not valid JSON';

/**
 * Parses a model's would-be JSON reply. Valid JSON is taken as it is; otherwise the first
 * fenced code block (if any) is taken, and in it the outermost `{...}` (or `[...]`), which
 * the `jsonrepair` library then repairs (trailing commas, single quotes, Python literals
 * `True`/`False`/`None`, unquoted keys, comments, missing closing brackets, ...). A reply
 * without such a bracketed value (prose, a reply cut before its closing bracket) is
 * refused, so that the caller can retry or fall back.
 */
export function parseJsonLenient(text: string): LenientParse {
  const first = tryParse(text.trim());
  if (first !== undefined) return { ok: true, value: first.value, repaired: false };
  const candidate = outermost(stripFences(text.trim()));
  if (candidate === undefined) return { ok: false, error: NOT_JSON };
  let repaired: { value: unknown } | undefined;
  try {
    repaired = tryParse(jsonrepair(candidate));
  } catch {
    repaired = undefined;
  }
  return repaired ? { ok: true, value: repaired.value, repaired: true } : { ok: false, error: NOT_JSON };
}

/** True when {@link parseJsonLenient} can make a JSON value of `text`. */
export function isSalvageableJson(text: string): boolean {
  return parseJsonLenient(text).ok;
}

function tryParse(s: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(s) };
  } catch {
    return undefined;
  }
}

// The two extraction steps below stay hand-written: jsonrepair repairs one JSON text but does
// not pick a JSON value out of surrounding prose (it turns the prose into strings, or fails).

/** The content of the first fenced code block, or the text itself. */
function stripFences(s: string): string {
  const m = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/.exec(s);
  return m ? m[1].trim() : s;
}

/** From the first `{` to the last `}` (or `[`...`]` when there is no object); undefined if neither. */
function outermost(s: string): string | undefined {
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ]) {
    const start = s.indexOf(open);
    const end = s.lastIndexOf(close);
    if (start >= 0 && end > start) return s.slice(start, end + 1);
  }
  return undefined;
}
