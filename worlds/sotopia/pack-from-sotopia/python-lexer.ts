/**
 * Tokens of a Python source file, enough to find its string literals by what surrounds
 * them: names, string literals (with their prefixes, escapes and f-string fields),
 * numbers, operators. The file is read as text and never run. Hand-written: no library
 * on npm reads Python 3.11 string literals (raw, byte, f-strings, implicit concatenation).
 */

/** A piece of a string literal's value: literal text, or an f-string field's expression. */
export type StringPart = { text: string } | { expr: string };

/** A token, with the offsets where it starts and ends. */
export type Token = { at: number; end: number } & (
  | { kind: 'name'; value: string }
  | { kind: 'string'; parts: StringPart[]; fstring: boolean; raw: boolean }
  | { kind: 'op'; value: string }
  | { kind: 'number'; value: string }
);

/** A Python source the lexer cannot read. */
export class PythonSyntaxError extends Error {}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/** The value of a backslash escape starting at `i` (after the backslash); its length. */
function escapeAt(src: string, i: number): { text: string; length: number } {
  const c = src[i];
  if (c === '\n') return { text: '', length: 1 };
  if (c in SIMPLE_ESCAPES) return { text: SIMPLE_ESCAPES[c], length: 1 };
  const hex = (n: number) => {
    const digits = src.slice(i + 1, i + 1 + n);
    if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(digits)) throw new PythonSyntaxError(`bad \\${c} escape`);
    return { text: String.fromCodePoint(Number.parseInt(digits, 16)), length: n + 1 };
  };
  if (c === 'x') return hex(2);
  if (c === 'u') return hex(4);
  if (c === 'U') return hex(8);
  const octal = /^[0-7]{1,3}/.exec(src.slice(i, i + 3));
  if (octal) return { text: String.fromCharCode(Number.parseInt(octal[0], 8)), length: octal[0].length };
  return { text: `\\${c}`, length: 1 };
}

/** The end of an f-string field `{...}` starting at `i` (the `{`), nested brackets and strings skipped. */
function fieldEnd(src: string, i: number, quote: string): number {
  let depth = 0;
  for (let j = i; j < src.length; j++) {
    const c = src[j];
    if (src.startsWith(quote, j)) throw new PythonSyntaxError('an f-string field is not closed');
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') {
      depth--;
      if (depth === 0) return j;
    } else if (c === "'" || c === '"') {
      const close = src.indexOf(c, j + 1);
      if (close < 0) throw new PythonSyntaxError('a string inside an f-string field is not closed');
      j = close;
    }
  }
  throw new PythonSyntaxError('an f-string field is not closed');
}

/** A string literal's body from `start` (after the opening quote) to its closing `quote`. */
function readBody(
  src: string,
  start: number,
  quote: string,
  raw: boolean,
  fstring: boolean,
): { parts: StringPart[]; end: number } {
  const parts: StringPart[] = [];
  let text = '';
  let i = start;
  const flush = () => {
    if (text) parts.push({ text });
    text = '';
  };
  while (i < src.length) {
    if (src.startsWith(quote, i)) {
      flush();
      return { parts, end: i + quote.length };
    }
    const c = src[i];
    if (c === '\n' && quote.length === 1)
      throw new PythonSyntaxError('a string literal is not closed on its line');
    if (c === '\\') {
      if (raw) {
        text += c + (src[i + 1] ?? '');
        i += 2;
        continue;
      }
      const e = escapeAt(src, i + 1);
      text += e.text;
      i += 1 + e.length;
      continue;
    }
    if (fstring && (c === '{' || c === '}')) {
      if (src[i + 1] === c) {
        text += c;
        i += 2;
        continue;
      }
      if (c === '}') throw new PythonSyntaxError("a single '}' in an f-string");
      const end = fieldEnd(src, i, quote);
      flush();
      parts.push({ expr: src.slice(i + 1, end).trim() });
      i = end + 1;
      continue;
    }
    text += c;
    i++;
  }
  throw new PythonSyntaxError('a string literal is not closed');
}

const STRING_START = /^([rRbBuUfF]{0,2})('''|"""|'|")/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const NUMBER = /^(?:0[xXoObB][0-9a-fA-F_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?j?)/;
const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '**',
  '//',
  '==',
  '!=',
  '<=',
  '>=',
  '<<',
  '>>',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
];

/** The tokens of a Python source. */
export function lexPython(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '#') {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl;
      continue;
    }
    if (/\s/.test(c) || (c === '\\' && src[i + 1] === '\n')) {
      i += c === '\\' ? 2 : 1;
      continue;
    }
    const rest = src.slice(i, i + 8);
    const s = STRING_START.exec(rest);
    if (s && (s[1] === '' || /^[rRbBuUfF]+$/.test(s[1]))) {
      const prefix = s[1].toLowerCase();
      const raw = prefix.includes('r');
      const fstring = prefix.includes('f');
      const body = readBody(src, i + s[0].length, s[2], raw, fstring);
      tokens.push({ kind: 'string', parts: body.parts, fstring, raw, at: i, end: body.end });
      i = body.end;
      continue;
    }
    const name = NAME.exec(src.slice(i, i + 200));
    if (name) {
      tokens.push({ kind: 'name', value: name[0], at: i, end: i + name[0].length });
      i += name[0].length;
      continue;
    }
    const num = /[\d.]/.test(c) ? NUMBER.exec(src.slice(i, i + 100)) : null;
    if (num?.[0]) {
      tokens.push({ kind: 'number', value: num[0], at: i, end: i + num[0].length });
      i += num[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i)) ?? c;
    tokens.push({ kind: 'op', value: op, at: i, end: i + op.length });
    i += op.length;
  }
  return tokens;
}
