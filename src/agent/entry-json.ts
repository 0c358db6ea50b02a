import { canonicalJson } from '../core/index.ts';
import { derivedOf } from '../memory/entry-derived.ts';

/**
 * `canonicalJson(entry)`, written directly for an entry made by `remember` (it has the
 * derived-data slot, is frozen, and holds exactly the keys id, importance, kind, t, text and
 * optionally source, with finite numbers and string texts); anything else goes through
 * canonicalJson. The same bytes either way (test/agent/json-memory-digest.test.ts).
 */
export function entryJson(entry: object): string {
  const e = entry as Record<string, unknown>;
  if (derivedOf(entry) === undefined || !Object.isFrozen(entry)) return canonicalJson(entry);
  const { id, importance, kind, t, text, source } = e;
  const n = Object.keys(e).length;
  if (n !== (source === undefined ? 5 : 6) || !isNum(id) || !isNum(importance) || !isNum(t))
    return canonicalJson(entry);
  if (typeof kind !== 'string' || typeof text !== 'string') return canonicalJson(entry);
  if (source !== undefined && typeof source !== 'string') return canonicalJson(entry);
  const src = source === undefined ? '' : `"source":${JSON.stringify(source)},`;
  return `{"id":${num(id)},"importance":${num(importance)},"kind":${JSON.stringify(kind)},${src}"t":${num(t)},"text":${JSON.stringify(text)}}`;
}

function isNum(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** A finite number as canonicalJson writes it (-0 as 0). */
function num(x: number): string {
  return x === 0 ? '0' : String(x);
}
