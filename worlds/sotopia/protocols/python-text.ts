/**
 * Text as Python renders it, where a Sotopia prompt holds Python's rendering of a value:
 * `json.dumps` (the reply schema LangChain puts in a prompt), `repr` of a list of names
 * (Sotopia's script repair prompt), `str.title` (pydantic's field titles) and Sotopia's
 * `format_docstring` (its context text). Hand-written because no JavaScript library
 * reproduces CPython's exact output (ASCII escapes, `', '` separators, quote choice).
 */

/** `json.dumps(value)` with Python's defaults: `', '` and `': '` separators, non-ASCII as `\uXXXX`. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return pythonJsonString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${pythonJsonString(k)}: ${pythonJsonDumps(v)}`).join(', ')}}`;
}

const JSON_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** A JSON string literal with `ensure_ascii=True` (every code unit above 0x7e as `\uXXXX`). */
function pythonJsonString(s: string): string {
  let out = '"';
  for (const c of s) {
    const escaped = JSON_ESCAPES[c];
    if (escaped) out += escaped;
    else if (c.length === 1 && c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) < 0x7f) out += c;
    else for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

/** `repr(s)` of a Python `str` (single quotes unless the text holds `'` and no `"`). */
export function pythonRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of s) {
    const code = c.codePointAt(0) ?? 0;
    if (c === '\\') out += '\\\\';
    else if (c === quote) out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += c;
  }
  return out + quote;
}

/** `str(list_of_str)`: `['A', 'B']`. */
export function pythonListRepr(items: readonly string[]): string {
  return `[${items.map(pythonRepr).join(', ')}]`;
}

/** `s.title()`: each run of letters starts upper case, its other letters lower case. */
export function pythonTitle(s: string): string {
  let out = '';
  let inWord = false;
  for (const c of s) {
    const letter = c.toLowerCase() !== c.toUpperCase();
    out += letter ? (inWord ? c.toLowerCase() : c.toUpperCase()) : c;
    inWord = letter;
  }
  return out;
}

/** Sotopia's `format_docstring`: every line break followed by spaces loses the spaces; then `strip()`. */
export function formatDocstring(text: string): string {
  return pythonStrip(text.replace(/\n +/g, '\n'));
}

/** The characters Python's `str.isspace` accepts. */
const PY_SPACE =
  '[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');

/** Python's `str.strip()`. */
export function pythonStrip(text: string): string {
  return text.replace(STRIP, '');
}
