import { createHash, hash } from 'node:crypto';
import { canonicalJson } from '../core/index.ts';
import { isMadeEntry, isMarkedStream } from '../memory/entry-derived.ts';
import { entryJson } from './entry-json.ts';

/** Lanes of 32 bits in the sum: 256 bits. */
const LANES = 8;

/** What the digest holds for one (agent, key) field. */
interface Field {
  value: unknown;
  /** Lanes of the field's own term: the value's, or a stream's head. */
  lanes: Uint32Array;
  /** For a memory stream: its entries and their lanes, entry after entry. */
  entries?: readonly object[];
  entryLanes?: Uint32Array;
  /** Per entry: 1 when it was deeply frozen when hashed (so it can never change). */
  entryFrozen?: Uint8Array;
  /** The previous version's arrays, reused by the next version when large enough (no 16 KB garbage per tick). */
  spareLanes?: Uint32Array;
  spareFrozen?: Uint8Array;
}

/**
 * The incremental digest of the JSON memory (keys outside the declared numeric slots) of a
 * population of XState agents, as the per-tick `state` of log format 2 defines it
 * (docs/LOG-FORMAT.md, "Format 2"). Every (agent `i`, key `k`, value `v`) field adds
 * terms to a sum `S` in (Z/2^32)^8, each term the SHA-256 of a tagged line read as eight
 * little-endian u32 lanes:
 *
 * ```text
 * v a memory stream {entries, nextId} (entries: objects with ascending numeric ids):
 *   H("s\n" + i + "\n" + json(k) + "\n" + canonicalJson(nextId))
 *   + sum over entries e of H("e\n" + i + "\n" + json(k) + "\n" + canonicalJson(e))
 * any other v:
 *   H("v\n" + i + "\n" + json(k) + "\n" + canonicalJson(v))
 * state = base                                                 when no agent has such a field
 *       = first 16 hex of sha256("grapevine-state/2\n" + base + "\n" + hex(S))   otherwise
 * ```
 *
 * A stream's entries are hashed once, when they first appear (by identity, when deeply
 * frozen as memory entries are); an insert adds one term and an eviction subtracts one,
 * wherever in the stream it happens. A tick costs the hashing of what changed plus a
 * pointer walk over each changed stream.
 */
export class JsonMemoryDigest {
  private readonly fields: (Map<string, Field> | undefined)[];
  private readonly seen: (object | undefined)[];
  private readonly sum = new Uint32Array(LANES);
  private count = 0;
  private readonly frozen = new WeakSet<object>();

  constructor(size: number) {
    this.fields = new Array(size);
    this.seen = new Array(size);
  }

  /**
   * Brings agent `i`'s terms up to date with its memory `mem`; `slots` are the keys left out
   * (numeric slots, hashed apart). Free when `mem` is the object seen last time.
   */
  update(i: number, mem: Record<string, unknown>, slots: ReadonlySet<string>): void {
    if (this.seen[i] === mem) return;
    this.seen[i] = mem;
    let fields = this.fields[i];
    if (!fields) {
      fields = new Map();
      this.fields[i] = fields;
    }
    for (const [k, f] of fields)
      if (slots.has(k) || mem[k] === undefined || !Object.hasOwn(mem, k)) this.drop(fields, k, f);
    for (const k of Object.keys(mem)) {
      const v = mem[k];
      if (slots.has(k) || v === undefined) continue;
      const old = fields.get(k);
      if (old && old.value === v && this.isDeepFrozen(v)) continue;
      fields.set(k, this.field(i, k, v, old));
    }
  }

  /** Forgets every agent (after a whole-population restore); terms are rebuilt on the next update. */
  reset(): void {
    this.fields.fill(undefined);
    this.seen.fill(undefined);
    this.sum.fill(0);
    this.count = 0;
  }

  /** The state digest given the executors' shared `base` hash (16 hex). */
  hex(base: string): string {
    if (this.count === 0) return base;
    let s = '';
    for (let l = 0; l < LANES; l++) s += this.sum[l].toString(16).padStart(8, '0');
    return createHash('sha256').update(`grapevine-state/2\n${base}\n${s}`).digest('hex').slice(0, 16);
  }

  private drop(fields: Map<string, Field>, k: string, f: Field): void {
    this.add(f.lanes, 0, -1);
    if (f.entryLanes) for (let e = 0; e < f.entries!.length; e++) this.add(f.entryLanes, e, -1);
    fields.delete(k);
    this.count--;
  }

  /** The new field of `v`, its terms added and `old`'s subtracted (reusing unchanged entries). */
  private field(i: number, k: string, v: unknown, old: Field | undefined): Field {
    const prefix = `${i}\n${JSON.stringify(k)}\n`;
    if (old) this.add(old.lanes, 0, -1);
    else this.count++;
    if (!isStream(v)) {
      if (old?.entryLanes) for (let e = 0; e < old.entries!.length; e++) this.add(old.entryLanes, e, -1);
      const lanes = term(`v\n${prefix}${canonicalJson(v)}`);
      this.add(lanes, 0, 1);
      return { value: v, lanes };
    }
    const lanes = term(`s\n${prefix}${canonicalJson(v.nextId)}`);
    this.add(lanes, 0, 1);
    const entries = v.entries;
    // Capacity to spare (x1.25), so that a stream that grows by a few entries a tick reuses them.
    const room = entries.length + (entries.length >> 2);
    const reuse = old?.spareLanes !== undefined && old.spareLanes.length >= entries.length * LANES;
    const entryLanes = reuse ? old.spareLanes! : new Uint32Array(room * LANES);
    const entryFrozen = reuse ? old.spareFrozen! : new Uint8Array(room);
    const before = old?.entries ?? [];
    const beforeLanes = old?.entryLanes;
    let j = 0; // merge walk over the old entries, both in ascending id order
    for (let e = 0; e < entries.length; e++) {
      const entry = entries[e] as { id: number };
      while (j < before.length && (before[j] as { id: number }).id < entry.id)
        this.add(beforeLanes!, j++, -1);
      if (j < before.length && before[j] === entry && old!.entryFrozen![j] === 1) {
        for (let l = 0; l < LANES; l++) entryLanes[e * LANES + l] = beforeLanes![j * LANES + l];
        entryFrozen[e] = 1;
        j++;
        continue;
      }
      if (j < before.length && (before[j] as { id: number }).id === entry.id) this.add(beforeLanes!, j++, -1);
      termInto(`e\n${prefix}${entryJson(entry)}`, entryLanes, e * LANES);
      entryFrozen[e] = this.isDeepFrozen(entry) ? 1 : 0;
      this.add(entryLanes, e, 1);
    }
    while (j < before.length) this.add(beforeLanes!, j++, -1);
    return {
      value: v,
      lanes,
      entries,
      entryLanes,
      entryFrozen,
      spareLanes: old?.entryLanes,
      spareFrozen: old?.entryFrozen,
    };
  }

  /** Adds (`sign` 1) or subtracts (-1) the `n`th lane group of `lanes` to the sum. */
  private add(lanes: Uint32Array, n: number, sign: 1 | -1): void {
    const at = n * LANES;
    for (let l = 0; l < LANES; l++) this.sum[l] = this.sum[l] + sign * lanes[at + l];
  }

  /** True when `v` is a primitive or a frozen object of such values, all the way down. */
  private isDeepFrozen(v: unknown): boolean {
    if (v === null || typeof v !== 'object') return true;
    if (this.frozen.has(v) || isMadeEntry(v)) return true;
    if (!Object.isFrozen(v)) return false;
    for (const x of Object.values(v)) if (!this.isDeepFrozen(x)) return false;
    this.frozen.add(v);
    return true;
  }
}

/** SHA-256 of `line` as eight little-endian u32 lanes. */
function term(line: string): Uint32Array {
  const out = new Uint32Array(LANES);
  termInto(line, out, 0);
  return out;
}

/** Writes `term(line)` into `out` from index `at` (no array per term). */
function termInto(line: string, out: Uint32Array, at: number): void {
  const d = hash('sha256', line, 'buffer'); // one-shot: no Hash object per term
  for (let l = 0; l < LANES; l++) out[at + l] = d.readUInt32LE(l * 4);
}

/**
 * A memory stream as the memory module keeps it: exactly the keys `entries` and `nextId`
 * (keys whose value is undefined are not keys in JSON), `nextId` a finite number, every
 * entry a plain object with a finite numeric `id`, ids strictly ascending.
 */
function isStream(v: unknown): v is { entries: readonly object[]; nextId: number } {
  if (isMarkedStream(v)) return true; // made by remember: checked when made, frozen since
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  const keys = Object.keys(r).filter((k) => r[k] !== undefined);
  if (keys.length !== 2 || !Array.isArray(r.entries) || !Number.isFinite(r.nextId)) return false;
  let last = Number.NEGATIVE_INFINITY;
  for (const e of r.entries as unknown[]) {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return false;
    const id = (e as { id?: unknown }).id;
    if (typeof id !== 'number' || !Number.isFinite(id) || id <= last) return false;
    last = id;
  }
  return true;
}
