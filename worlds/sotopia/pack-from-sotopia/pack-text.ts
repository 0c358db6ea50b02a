import { placeholdersOf } from '../protocols/fill.ts';
import { formatDocstring } from '../protocols/python-text.ts';
import { type FoundString, plain, SourceShapeError } from './python-source.ts';

/**
 * Sotopia's strings as pack text. A pack uses the syntax of Python's `str.format` (`{name}`
 * placeholders, `{{` and `}}` for braces), so: a template Sotopia formats with `str.format`
 * keeps its text and has its placeholders renamed to the pack's; an f-string becomes a
 * template whose fields are mapped to the pack's placeholders; a value Sotopia inserts as
 * it is (a format instruction) has its braces doubled.
 */

/** Doubles every brace: a literal text as pack text. */
export function escapeBraces(text: string): string {
  return text.replace(/[{}]/g, (c) => c + c);
}

/**
 * A `str.format` template as pack text: its placeholders must be exactly `rename`'s keys
 * (Sotopia's names), and become `rename`'s values (the pack's). `docstring`: Sotopia passes
 * the template through its `format_docstring` before formatting it.
 */
export function asTemplate(
  s: FoundString,
  label: string,
  rename: Record<string, string>,
  docstring: boolean,
): string {
  if (s.fstring) throw new SourceShapeError(`${label} is an f-string, not a template`);
  const text = plain(s.parts, label);
  const used = placeholdersOf(text, true);
  const expected = Object.keys(rename);
  const missing = expected.filter((p) => !used.includes(p));
  const extra = used.filter((p) => !expected.includes(p));
  if (missing.length > 0 || extra.length > 0)
    throw new SourceShapeError(
      `${label} has the placeholders ${used.map((p) => `{${p}}`).join(', ') || 'none'}; expected ${expected.map((p) => `{${p}}`).join(', ')}`,
    );
  const renamed = text.replace(/\{\{|\}\}|\{([A-Za-z_]\w*)\}/g, (whole, key: string | undefined) =>
    key === undefined ? whole : `{${rename[key]}}`,
  );
  return docstring ? formatDocstring(renamed) : renamed;
}

/**
 * An f-string as pack text: each field's expression (as written, spaces removed) is mapped by
 * `fields` to a pack placeholder name, or to a fixed text (`{ text }`). An expression not in
 * `fields` is an error naming it.
 */
export function asFString(
  s: FoundString,
  label: string,
  fields: Record<string, string | { text: string }>,
): string {
  let out = '';
  for (const p of s.parts) {
    if ('text' in p) {
      out += escapeBraces(p.text);
      continue;
    }
    const key = p.expr.replace(/\s+/g, '');
    const to = fields[key];
    if (to === undefined)
      throw new SourceShapeError(
        `${label} has the field {${p.expr}}; expected ${Object.keys(fields).join(', ')}`,
      );
    out += typeof to === 'string' ? `{${to}}` : escapeBraces(to.text);
  }
  return out;
}

/** A plain string (no field) as pack text. */
export function asValue(s: FoundString, label: string): string {
  return escapeBraces(plain(s.parts, label));
}

/** Python's `inspect.cleandoc`: what pydantic's `getdoc` makes of a class docstring. */
export function cleandoc(doc: string): string {
  const lines = doc.replace(/\t/g, '        ').split('\n');
  const indents = lines
    .slice(1)
    .filter((l) => l.trimStart() !== '')
    .map((l) => l.length - l.trimStart().length);
  const margin = indents.length > 0 ? Math.min(...indents) : 0;
  const out = [lines[0].trimStart(), ...lines.slice(1).map((l) => l.slice(margin))];
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  while (out.length > 0 && out[0] === '') out.shift();
  return out.join('\n');
}

/** The one string of a list the extractor expects exactly one of. */
export function only(found: readonly FoundString[], label: string): FoundString {
  if (found.length !== 1) throw new SourceShapeError(`${label}: expected one string, found ${found.length}`);
  return found[0];
}

/** The `n`-th string of a list the extractor expects exactly `count` of. */
export function nth(found: readonly FoundString[], n: number, count: number, label: string): FoundString {
  if (found.length !== count)
    throw new SourceShapeError(`${label}: expected ${count} strings, found ${found.length}`);
  return found[n];
}
