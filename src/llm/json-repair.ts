/** Result of {@link parseJsonLenient}. */
export type LenientParse = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

/**
 * Parses a model's would-be JSON reply, repairing the usual damage step by step and stopping
 * at the first step that parses: code fences stripped, the outermost `{...}` (or `[...]`)
 * taken, trailing commas removed, single-quoted strings and Python literals
 * (`True`/`False`/`None`) converted. Strings in double quotes are never touched.
 */
export function parseJsonLenient(text: string): LenientParse {
  const first = tryParse(text.trim());
  if (first.ok) return { ok: true, value: first.value, repaired: false };
  let candidate = outermost(stripFences(text.trim()));
  for (const step of [(s: string) => s, removeTrailingCommas, convertQuotesAndLiterals]) {
    candidate = step(candidate);
    const parsed = tryParse(candidate);
    if (parsed.ok) return { ok: true, value: parsed.value, repaired: true };
  }
  return { ok: false, error: first.error };
}

/** True when {@link parseJsonLenient} can make a JSON value of `text`. */
export function isSalvageableJson(text: string): boolean {
  return parseJsonLenient(text).ok;
}

function tryParse(s: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch {
    // A fixed text, not V8's message: it may end up in a prompt, and V8's wording varies.
    return { ok: false, error: 'not valid JSON' };
  }
}

/** The content of the first fenced code block, or the text itself. */
function stripFences(s: string): string {
  const m = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/.exec(s);
  return m ? m[1].trim() : s;
}

/** From the first `{` to the last `}` (or `[`...`]` when there is no object). */
function outermost(s: string): string {
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ]) {
    const start = s.indexOf(open);
    const end = s.lastIndexOf(close);
    if (start >= 0 && end > start) return s.slice(start, end + 1);
  }
  return s;
}

/** Calls `visit` for each char outside double-quoted strings; strings are copied verbatim. */
function mapOutsideStrings(s: string, visit: (s: string, i: number, out: string[]) => number): string {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === '"') {
      const end = endOfString(s, i, '"');
      out.push(s.slice(i, end));
      i = end;
    } else {
      i = visit(s, i, out);
    }
  }
  return out.join('');
}

/** Index just past the string that starts at `start` with quote `q` (or the end of `s`). */
function endOfString(s: string, start: number, q: string): number {
  let i = start + 1;
  while (i < s.length && s[i] !== q) i += s[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, s.length);
}

function removeTrailingCommas(s: string): string {
  return mapOutsideStrings(s, (src, i, out) => {
    if (src[i] === ',') {
      let j = i + 1;
      while (j < src.length && /\s/.test(src[j])) j++;
      if (src[j] === '}' || src[j] === ']') return i + 1;
    }
    out.push(src[i]);
    return i + 1;
  });
}

const PY_LITERALS = new Map([
  ['True', 'true'],
  ['False', 'false'],
  ['None', 'null'],
]);

function convertQuotesAndLiterals(s: string): string {
  const word = /[A-Za-z_]+/y;
  return mapOutsideStrings(s, (src, i, out) => {
    if (src[i] === "'") {
      const end = endOfString(src, i, "'");
      out.push(`"${requote(src.slice(i + 1, end - 1))}"`);
      return end;
    }
    word.lastIndex = i;
    const m = word.exec(src);
    if (m) {
      out.push(PY_LITERALS.get(m[0]) ?? m[0]);
      return i + m[0].length;
    }
    out.push(src[i]);
    return i + 1;
  });
}

/** The body of a single-quoted string as the body of a double-quoted one. */
function requote(body: string): string {
  const out: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      const next = body[i + 1] ?? '';
      out.push(next === "'" ? "'" : c + next);
      i++;
    } else out.push(c === '"' ? '\\"' : c);
  }
  return out.join('');
}
