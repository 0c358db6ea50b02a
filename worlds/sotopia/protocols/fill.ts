/**
 * How a template is filled. `{name}` is a placeholder. With `escapes` on (the syntax of
 * Python's `str.format`, which Sotopia's templates use), `{{` and `}}` stand for `{` and
 * `}`; without (the syntax of the world's templates up to version 2.1), they are literal.
 * Any other brace is literal text. Values are inserted verbatim, never filled again.
 */

const PLAIN = /\{([A-Za-z_][\w]*)\}/g;
const ESCAPED = /\{\{|\}\}|\{([A-Za-z_][\w]*)\}/g;

/** The placeholders a template uses, in order of first appearance. */
export function placeholdersOf(text: string, escapes = false): string[] {
  const found = [...text.matchAll(escapes ? ESCAPED : PLAIN)].map((m) => m[1]);
  return [...new Set(found.filter((p): p is string => p !== undefined))];
}

/** Fills a template's placeholders (each occurrence); a placeholder without a value stays as written. */
export function fillTemplate(text: string, values: Record<string, string>, escapes = false): string {
  return text.replace(escapes ? ESCAPED : PLAIN, (whole, key: string | undefined) => {
    if (key === undefined) return whole[0];
    return Object.hasOwn(values, key) ? values[key] : whole;
  });
}
