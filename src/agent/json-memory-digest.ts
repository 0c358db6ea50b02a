import { createHash, hash } from 'node:crypto';
import { canonicalJson } from '../core/index.ts';
import { isMadeEntry, isMarkedStream } from '../memory/entry-derived.ts';
import { entryContentJson, entryJson, isPlainMade } from './entry-json.ts';

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
  /** Format 3: the field's seed lanes H("m\n" + P), made when its first entry is hashed. */
  seed?: Uint32Array;
}

/** Format 3: one content term memoised per heard line's text (see {@link JsonMemoryDigest.contentInto}). */
interface Content {
  importance: number;
  kind: string;
  t: number;
  source: string | undefined;
  lanes: Uint32Array;
}

/** Which per-tick state digest: log format 2 (`grapevine-state/2`) or 3 (`grapevine-state/3`). */
export type JsonDigestVersion = 2 | 3;

/**
 * The incremental digest of the JSON memory (keys outside the declared numeric slots) of a
 * population of XState agents, as the per-tick `state` of log formats 2 and 3 defines it
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
 *
 * Format 3 (log format 3, `version` 3) changes only the entry term and the final tag: an
 * entry's content (everything but its id) is hashed once, and bound to its agent, key and id
 * by a lane-wise product with a multiplier made from the field's seed and the id:
 *
 * ```text
 * C(e)       = H("c\n" + canonicalJson(e without "id"))
 * F          = H("m\n" + i + "\n" + json(k) + "\n")                  (the field's seed)
 * M(id)_l    = fmix32(F_l xor id) | 1        when id is an integer in [0, 2^32)
 *            = H("m\n" + i + "\n" + json(k) + "\n" + canonicalJson(id))_l | 1   otherwise
 * term(e)_l  = C(e)_l * M(e.id)_l  mod 2^32                           (l = 0..7)
 * state      = first 16 hex of sha256("grapevine-state/3\n" + base + "\n" + hex(S))
 * ```
 *
 * When every resident hears every line, N hearers' entries share one content hash (memoised
 * per text within a tick) and each costs eight multiplies instead of a SHA-256 of its JSON.
 * The collision argument is in docs/LOG-FORMAT.md ("Format 3").
 */
export class JsonMemoryDigest {
  private readonly fields: (Map<string, Field> | undefined)[];
  private readonly seen: (object | undefined)[];
  private readonly sum = new Uint32Array(LANES);
  private count = 0;
  private readonly frozen = new WeakSet<object>();
  /** Format 3: content terms of this tick's new entries, by text (cleared by {@link hex}). */
  private readonly contents = new Map<string, Content>();
  private readonly tag: string;

  constructor(
    size: number,
    private readonly version: JsonDigestVersion = 3,
  ) {
    this.fields = new Array(size);
    this.seen = new Array(size);
    this.tag = `grapevine-state/${version}\n`;
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
    this.contents.clear();
  }

  /** The state digest given the executors' shared `base` hash (16 hex). */
  hex(base: string): string {
    // A line heard this tick is remembered this tick: later ticks hear other lines.
    this.contents.clear();
    if (this.count === 0) return base;
    let s = '';
    for (let l = 0; l < LANES; l++) s += this.sum[l].toString(16).padStart(8, '0');
    return createHash('sha256').update(`${this.tag}${base}\n${s}`).digest('hex').slice(0, 16);
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
    let seed: Uint32Array | undefined;
    let j = 0; // merge walk over the old entries, both in ascending id order
    const beforeFrozen = old?.entryFrozen;
    for (let e = 0; e < entries.length; e++) {
      const entry = entries[e] as { id: number };
      // The common case first, by pointer alone: the entry kept from the last version (no id reads).
      if (j < before.length && before[j] === entry && beforeFrozen![j] === 1) {
        for (let l = 0; l < LANES; l++) entryLanes[e * LANES + l] = beforeLanes![j * LANES + l];
        entryFrozen[e] = 1;
        j++;
        continue;
      }
      while (j < before.length && (before[j] as { id: number }).id < entry.id)
        this.add(beforeLanes!, j++, -1);
      if (j < before.length && before[j] === entry && beforeFrozen![j] === 1) {
        for (let l = 0; l < LANES; l++) entryLanes[e * LANES + l] = beforeLanes![j * LANES + l];
        entryFrozen[e] = 1;
        j++;
        continue;
      }
      if (j < before.length && (before[j] as { id: number }).id === entry.id) this.add(beforeLanes!, j++, -1);
      if (this.version === 2) termInto(`e\n${prefix}${entryJson(entry)}`, entryLanes, e * LANES);
      else {
        seed ??= old?.seed ?? term(`m\n${prefix}`);
        this.boundInto(entry, seed, prefix, entryLanes, e * LANES);
      }
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
      seed: seed ?? old?.seed,
    };
  }

  /** Format 3: writes `term(e)` = C(e) * M(e.id), lane by lane, into `out` from `n * LANES`. */
  private boundInto(
    entry: { id: number },
    seed: Uint32Array,
    prefix: string,
    out: Uint32Array,
    at: number,
  ): void {
    const content = this.contentInto(entry);
    const id = entry.id;
    if (Number.isInteger(id) && id >= 0 && id < 2 ** 32) {
      for (let l = 0; l < LANES; l++) out[at + l] = Math.imul(content[l], fmix32((seed[l] ^ id) >>> 0) | 1);
      return;
    }
    const m = term(`m\n${prefix}${canonicalJson(id)}`);
    for (let l = 0; l < LANES; l++) out[at + l] = Math.imul(content[l], m[l] | 1);
  }

  /**
   * Format 3: C(e), memoised by text for entries made by `remember` (every hearer of a line
   * remembers it with the same text, kind, tick, source and importance); any other entry is
   * hashed each time.
   */
  private contentInto(entry: object): Uint32Array {
    if (!isPlainMade(entry)) return term(`c\n${entryContentJson(entry)}`);
    const c = this.contents.get(entry.text);
    if (
      c !== undefined &&
      c.t === entry.t &&
      c.importance === entry.importance &&
      c.kind === entry.kind &&
      c.source === entry.source
    )
      return c.lanes;
    const lanes = term(`c\n${entryContentJson(entry)}`);
    if (this.contents.size >= 1 << 16) this.contents.clear(); // bounded even if hex is never called
    this.contents.set(entry.text, {
      importance: entry.importance,
      kind: entry.kind,
      t: entry.t,
      source: entry.source,
      lanes,
    });
    return lanes;
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

/** MurmurHash3's 32-bit finaliser: a bijection of u32 that spreads every input bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
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
