import { lexPython, type StringPart, type Token } from './python-lexer.ts';

/**
 * A Python source file as tokens with their lines, and the searches the extractor needs:
 * a `def`/`class` block, the strings assigned to a name or passed as a keyword, returned,
 * joined with, or compared with `not in`. Every search says where it looked when it finds
 * nothing (a checkout of another shape).
 */

/** Whether `t` is the name `value`. */
export function isName(t: Token | undefined, value?: string): boolean {
  return t?.kind === 'name' && (value === undefined || t.value === value);
}

/** Whether `t` is the operator `value`. */
export function isOp(t: Token | undefined, value: string): boolean {
  return t?.kind === 'op' && t.value === value;
}

/** A source file's name (for messages) and its tokens. */
export interface PythonSource {
  file: string;
  src: string;
  tokens: Token[];
  /** Line start offsets. */
  lines: number[];
}

/** A string the extractor looked for and did not find (or found in another shape). */
export class SourceShapeError extends Error {}

/** Reads a source. */
export function pythonSource(file: string, src: string): PythonSource {
  const lines = [0];
  for (let i = 0; i < src.length; i++) if (src[i] === '\n') lines.push(i + 1);
  return { file, src, tokens: lexPython(src), lines };
}

function lineOf(s: PythonSource, offset: number): number {
  let lo = 0;
  let hi = s.lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (s.lines[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function columnOf(s: PythonSource, offset: number): number {
  return offset - s.lines[lineOf(s, offset)];
}

/** A run of tokens (a block, a statement). */
export interface Span {
  source: PythonSource;
  tokens: Token[];
  /** What it is, for messages: `generate.py def agenerate_action`. */
  label: string;
}

/** The whole file as a span. */
export function wholeFile(s: PythonSource): Span {
  return { source: s, tokens: s.tokens, label: s.file };
}

const OPEN = new Set(['(', '[', '{']);
const CLOSE = new Set([')', ']', '}']);

/**
 * The body of `def name` or `class name` inside `span`: the tokens after the header's `:`
 * up to the first line that starts at the header's column or left of it.
 */
export function block(span: Span, keyword: 'def' | 'class', name: string): Span {
  const { source: s, tokens } = span;
  const k = tokens.findIndex((t, i) => isName(t, name) && isName(tokens[i - 1], keyword));
  if (k < 0) throw new SourceShapeError(`${span.label} has no ${keyword} ${name}`);
  const head = isName(tokens[k - 2], 'async') ? tokens[k - 2] : tokens[k - 1];
  const column = columnOf(s, head.at);
  let depth = 0;
  let i = k + 1;
  for (; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'op' && OPEN.has(t.value)) depth++;
    else if (t.kind === 'op' && CLOSE.has(t.value)) depth--;
    else if (isOp(t, ':') && depth === 0) break;
  }
  const body: Token[] = [];
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j];
    const first = lineOf(s, tokens[j - 1].end - 1) < lineOf(s, t.at);
    if (first && depth === 0 && columnOf(s, t.at) <= column) break;
    if (t.kind === 'op' && OPEN.has(t.value)) depth++;
    else if (t.kind === 'op' && CLOSE.has(t.value)) depth--;
    body.push(t);
  }
  return { source: s, tokens: body, label: `${span.label} ${keyword} ${name}` };
}

/** The string literals (adjacent ones concatenated, as Python does) starting at token `i`, and where they end. */
function stringsAt(
  tokens: Token[],
  i: number,
): { parts: StringPart[]; tokens: Token[]; next: number } | null {
  let j = i;
  while (isOp(tokens[j], '(')) j++;
  const opened = j - i;
  const found: Token[] = [];
  while (tokens[j]?.kind === 'string') found.push(tokens[j++]);
  if (found.length === 0) return null;
  for (let c = 0; c < opened && isOp(tokens[j], ')'); c++) j++;
  const parts = found.flatMap((t) => (t.kind === 'string' ? t.parts : []));
  return { parts, tokens: found, next: j };
}

/** A string found in a span: its value's parts and whether any of its literals is an f-string or raw. */
export interface FoundString {
  parts: StringPart[];
  fstring: boolean;
  raw: boolean;
}

function found(r: { parts: StringPart[]; tokens: Token[] }): FoundString {
  const strings = r.tokens.filter((t) => t.kind === 'string');
  return {
    parts: r.parts,
    fstring: strings.some((t) => t.kind === 'string' && t.fstring),
    raw: strings.some((t) => t.kind === 'string' && t.raw),
  };
}

/** Every string assigned to `name` or passed as the keyword `name` (`name = "..."`, `name="..."`), in order. */
export function stringsAssigned(span: Span, name: string): FoundString[] {
  const out: FoundString[] = [];
  const t = span.tokens;
  for (let i = 0; i + 2 < t.length; i++) {
    if (!isName(t[i], name) || !isOp(t[i + 1], '=')) continue;
    const r = stringsAt(t, i + 2);
    if (r) out.push(found(r));
  }
  return out;
}

/** Every string a `return` statement returns, in order. */
export function stringsReturned(span: Span): FoundString[] {
  const out: FoundString[] = [];
  span.tokens.forEach((t, i) => {
    if (t.kind !== 'name' || t.value !== 'return') return;
    const r = stringsAt(span.tokens, i + 1);
    if (r) out.push(found(r));
  });
  return out;
}

/** Every string that calls `.join(` (`"\n".join(...)`), in order. */
export function joinSeparators(span: Span): FoundString[] {
  const out: FoundString[] = [];
  const t = span.tokens;
  for (let i = 0; i + 2 < t.length; i++) {
    const s = t[i];
    if (s.kind === 'string' && isOp(t[i + 1], '.') && isName(t[i + 2], 'join'))
      out.push({ parts: s.parts, fstring: s.fstring, raw: s.raw });
  }
  return out;
}

/** Every string followed by `not in` (a filter such as `if "did nothing" not in text`). */
export function stringsBeforeNotIn(span: Span): FoundString[] {
  const out: FoundString[] = [];
  const t = span.tokens;
  for (let i = 0; i + 2 < t.length; i++) {
    const s = t[i];
    if (s.kind === 'string' && isName(t[i + 1], 'not') && isName(t[i + 2], 'in'))
      out.push({ parts: s.parts, fstring: s.fstring, raw: s.raw });
  }
  return out;
}

/** The string keys and values of the first dict literal in a span (`{"Man": "male", ...}`). */
export function dictOfStrings(span: Span): Record<string, string> {
  const t = span.tokens;
  const open = t.findIndex((x) => isOp(x, '{'));
  if (open < 0) throw new SourceShapeError(`${span.label} has no dict literal`);
  const out: Record<string, string> = {};
  for (let i = open + 1; i < t.length && !isOp(t[i], '}'); ) {
    const key = stringsAt(t, i);
    if (!key || !isOp(t[key.next], ':'))
      throw new SourceShapeError(`${span.label}: its dict is not of string keys`);
    const value = stringsAt(t, key.next + 1);
    if (!value) throw new SourceShapeError(`${span.label}: its dict is not of string values`);
    out[plain(key.parts, span.label)] = plain(value.parts, span.label);
    i = value.next;
    if (isOp(t[i], ',')) i++;
  }
  return out;
}

/**
 * The `description=` string of each annotated field of a class body (`name: type =
 * Field(..., description="...")`), in field order.
 */
export function fieldDescriptions(span: Span): { field: string; description: FoundString }[] {
  const { source: s, tokens } = span;
  const column = tokens.length > 0 ? columnOf(s, tokens[0].at) : 0;
  const starts = tokens
    .map((t, i) => ({ t, i }))
    .filter(
      ({ t, i }) =>
        i === 0 || (lineOf(s, tokens[i - 1].end - 1) < lineOf(s, t.at) && columnOf(s, t.at) === column),
    )
    .map(({ i }) => i);
  const out: { field: string; description: FoundString }[] = [];
  starts.forEach((start, k) => {
    const name = tokens[start];
    const colon = tokens[start + 1];
    if (name.kind !== 'name' || !isOp(colon, ':')) return;
    const statement: Span = {
      source: s,
      tokens: tokens.slice(start, starts[k + 1] ?? tokens.length),
      label: span.label,
    };
    const d = stringsAssigned(statement, 'description');
    if (d.length > 0) out.push({ field: name.value, description: d[0] });
  });
  return out;
}

/** The docstring of a class body (its first statement, a string), or null. */
export function docstring(span: Span): string | null {
  const first = span.tokens[0];
  if (first?.kind !== 'string') return null;
  return plain(first.parts, span.label);
}

/** The base classes named in `class name(...)`. */
export function baseClasses(span: Span, name: string): string[] {
  const t = span.tokens;
  const k = t.findIndex((x, i) => isName(x, name) && isName(t[i - 1], 'class'));
  if (k < 0 || !isOp(t[k + 1], '(')) return [];
  const out: string[] = [];
  for (let i = k + 2; i < t.length && !isOp(t[i], ')'); i++) {
    const x = t[i];
    if (x.kind === 'name') out.push(x.value);
  }
  return out;
}

/** A string's value when it has no f-string field. */
export function plain(parts: readonly StringPart[], label: string): string {
  let out = '';
  for (const p of parts) {
    if ('expr' in p)
      throw new SourceShapeError(`${label}: expected a plain string, found the field {${p.expr}}`);
    out += p.text;
  }
  return out;
}
