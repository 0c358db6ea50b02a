// Text from outside (paths and strings in a log, a queue message, an HTTP request) passes
// through here before it reaches a terminal (report-error.ts imports this file directly, as
// it does errors.ts, so that start-up loads no more of core): hand-written, since it is two regular
// expressions and the terminal rules are fixed by ECMA-48, not worth a dependency.

/**
 * C0 controls (tab kept), DEL, C1 controls (ESC's 8-bit twins: U+009B is CSI), the Unicode
 * line and paragraph separators, and the bidirectional overrides and isolates that make text
 * display in another order than it is stored.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Most characters of one printed error line; the rest is cut with a count. */
export const MAX_LINE_CHARS = 2000;

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` made safe to print on one terminal line: every control character, escape sequence
 * introducer, line break and bidirectional override is shown as a visible escape (`\x1b`,
 * `\n`, `\u202e`), so crafted text can neither drive the terminal (titles, colours, cursor
 * moves) nor forge a second line. Printable text, non-ASCII letters included, is unchanged.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** {@link terminalSafe}, and cut to at most `max` characters with the number cut. */
export function terminalLine(text: string, max = MAX_LINE_CHARS): string {
  const safe = terminalSafe(text);
  return safe.length <= max ? safe : `${safe.slice(0, max)}… (${safe.length - max} more characters)`;
}

/** Replaces the `user:password@` (or `token@`) part of every URL in `text` with `***@`. */
export function redactUrlCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@');
}
