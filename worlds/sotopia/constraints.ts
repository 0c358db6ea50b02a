/**
 * The constraint columns of Sotopia's environment profiles are Python reprs stored as
 * strings: `"[(18, 70), (18, 70)]"` (one age range per agent), `"[actor, actor]"` (one
 * occupation per agent), `"[[id, id], [id]]"` (candidate agent ids per seat), or a null
 * spelling (`"nan"` from pandas, `"none"`, `"null"`, `""`). These functions parse them and
 * write them back in the published spelling.
 */

/** One agent's allowed age range, inclusive. */
export type AgeRange = [min: number, max: number];

const NULLS = new Set(['nan', 'none', 'null', '']);

/** True for the spellings that mean "no constraint". */
export function isNullSpelling(text: string): boolean {
  return NULLS.has(text.trim().toLowerCase());
}

/** Parses `"[(18, 70), (18, 70)]"`; null for a null spelling. Throws on anything else. */
export function parseAgeConstraint(text: string): AgeRange[] | null {
  if (isNullSpelling(text)) return null;
  const body = /^\s*\[(.*)\]\s*$/.exec(text)?.[1];
  if (body === undefined) throw new Error(`age_constraint ${JSON.stringify(text)} is not a list`);
  if (body.trim() === '') return [];
  const out: AgeRange[] = [];
  const pair = /\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*(,|$)/y;
  let at = 0;
  while (at < body.length) {
    pair.lastIndex = at;
    const m = pair.exec(body);
    if (!m) throw new Error(`age_constraint ${JSON.stringify(text)} is not a list of (min, max) pairs`);
    const range: AgeRange = [Number(m[1]), Number(m[2])];
    if (range[0] > range[1]) throw new Error(`age_constraint ${JSON.stringify(text)} has min > max`);
    out.push(range);
    at = pair.lastIndex;
  }
  return out;
}

/** Writes age ranges as published: `[(18, 70), (18, 70)]`; null as `nan`. */
export function formatAgeConstraint(value: AgeRange[] | null): string {
  if (value === null) return 'nan';
  return `[${value.map(([a, b]) => `(${a}, ${b})`).join(', ')}]`;
}

/** Splits the inside of a flat `[a, b]` list; items lose quotes and outer spaces. */
function flatItems(body: string, what: string, text: string): string[] {
  if (body.trim() === '') return [];
  return body.split(',').map((raw) => {
    const item = raw.trim().replace(/^(['"])(.*)\1$/, '$2');
    if (item === '' || /[[\]()]/.test(item))
      throw new Error(`${what} ${JSON.stringify(text)} has a bad item ${JSON.stringify(raw)}`);
    return item;
  });
}

/** Parses `"[actor, actor]"`; null for a null spelling. Throws on anything else. */
export function parseOccupationConstraint(text: string): string[] | null {
  if (isNullSpelling(text)) return null;
  const body = /^\s*\[([^[\]]*)\]\s*$/.exec(text)?.[1];
  if (body === undefined) throw new Error(`occupation_constraint ${JSON.stringify(text)} is not a flat list`);
  return flatItems(body, 'occupation_constraint', text);
}

/** Writes occupations as published: `[actor, actor]`; null as `nan`. */
export function formatOccupationConstraint(value: string[] | null): string {
  return value === null ? 'nan' : `[${value.join(', ')}]`;
}

/** Parses `"[[id, id], [id]]"` (candidate agent ids per seat); null for a null spelling. */
export function parseAgentConstraint(text: string): string[][] | null {
  if (isNullSpelling(text)) return null;
  const body = /^\s*\[(.*)\]\s*$/.exec(text)?.[1];
  if (body === undefined) throw new Error(`agent_constraint ${JSON.stringify(text)} is not a list`);
  const out: string[][] = [];
  const inner = /\s*\[([^[\]]*)\]\s*(,|$)/y;
  let at = 0;
  while (at < body.length) {
    inner.lastIndex = at;
    const m = inner.exec(body);
    if (!m) throw new Error(`agent_constraint ${JSON.stringify(text)} is not a list of lists`);
    out.push(flatItems(m[1], 'agent_constraint', text));
    at = inner.lastIndex;
  }
  return out;
}

/** Writes agent constraints as `[[a, b], [c]]`; null as `none` (the published spelling). */
export function formatAgentConstraint(value: string[][] | null): string {
  return value === null ? 'none' : `[${value.map((seat) => `[${seat.join(', ')}]`).join(', ')}]`;
}
