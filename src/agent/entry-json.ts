import { canonicalJson } from '../core/index.ts';
import { derivedOf } from '../memory/entry-derived.ts';

/**
 * `canonicalJson(entry)`, written directly for an entry made by `remember` (it has the
 * derived-data slot, is frozen, and holds exactly the keys id, importance, kind, t, text and
 * optionally source, with finite numbers and string texts); anything else goes through
 * canonicalJson. The same bytes either way (test/agent/json-memory-digest.test.ts).
 */
export function entryJson(entry: object): string {
  if (!isPlainMade(entry)) return canonicalJson(entry);
  const { id, importance, kind, t, text, source } = entry;
  const src = source === undefined ? '' : `"source":${JSON.stringify(source)},`;
  return `{"id":${num(id)},"importance":${num(importance)},"kind":${JSON.stringify(kind)},${src}"t":${num(t)},"text":${JSON.stringify(text)}}`;
}

/**
 * `canonicalJson` of `entry` without its `id` key (the content term of log format 3), by the
 * same template as {@link entryJson} for an entry made by `remember`.
 */
export function entryContentJson(entry: object): string {
  if (!isPlainMade(entry)) {
    const { id: _id, ...rest } = entry as Record<string, unknown>;
    return canonicalJson(rest);
  }
  const { importance, kind, t, text, source } = entry;
  const src = source === undefined ? '' : `"source":${JSON.stringify(source)},`;
  return `{"importance":${num(importance)},"kind":${JSON.stringify(kind)},${src}"t":${num(t)},"text":${JSON.stringify(text)}}`;
}

/** An entry made by `remember`, in the exact shape the templates write. */
export interface MadeEntryShape {
  id: number;
  importance: number;
  kind: string;
  t: number;
  text: string;
  source?: string;
}

/**
 * True when `entry` was made by `remember` (derived slot, frozen) and holds exactly the keys
 * id, importance, kind, t, text and optionally source, with finite numbers and string texts.
 */
export function isPlainMade(entry: object): entry is MadeEntryShape {
  if (derivedOf(entry) === undefined || !Object.isFrozen(entry)) return false;
  const { id, importance, kind, t, text, source } = entry as Record<string, unknown>;
  const n = Object.keys(entry).length;
  if (n !== (source === undefined ? 5 : 6) || !isNum(id) || !isNum(importance) || !isNum(t)) return false;
  if (typeof kind !== 'string' || typeof text !== 'string') return false;
  return source === undefined || typeof source === 'string';
}

function isNum(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** A finite number as canonicalJson writes it (-0 as 0). */
function num(x: number): string {
  return x === 0 ? '0' : String(x);
}
