import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { entryContentJson, entryJson } from '../../src/agent/entry-json.ts';
import { JsonMemoryDigest } from '../../src/agent/json-memory-digest.ts';
import { canonicalJson } from '../../src/core/index.ts';
import { emptyMemory, type MemoryStreamState, remember } from '../../src/memory/index.ts';

const SLOTS: ReadonlySet<string> = new Set(['score']);
const BASE = '0123456789abcdef';

const lanesOf = (line: string): number[] => {
  const d = createHash('sha256').update(line).digest();
  return [0, 1, 2, 3, 4, 5, 6, 7].map((l) => d.readUInt32LE(l * 4));
};

/** MurmurHash3's finaliser, written out with BigInt arithmetic (not the code under test). */
function fmix(x: number): number {
  const m = (a: bigint, b: bigint): bigint => (a * b) & 0xffffffffn;
  let h = BigInt(x);
  h ^= h >> 16n;
  h = m(h, 0x85ebca6bn);
  h ^= h >> 13n;
  h = m(h, 0xc2b2ae35n);
  h ^= h >> 16n;
  return Number(h);
}

/** Format 3's term of entry `e` of field prefix P, from docs/LOG-FORMAT.md with BigInt products. */
function boundTerm(prefix: string, e: Record<string, unknown>): number[] {
  const { id, ...content } = e;
  const c = lanesOf(`c\n${canonicalJson(content)}`);
  const seed = lanesOf(`m\n${prefix}`);
  const n = id as number;
  const u32 = Number.isInteger(n) && n >= 0 && n < 2 ** 32;
  const other = u32 ? [] : lanesOf(`m\n${prefix}${canonicalJson(n)}`);
  return c.map((cl, l) => {
    const ml = u32 ? fmix(Number((BigInt(seed[l]) ^ BigInt(n)) & 0xffffffffn)) : other[l];
    return Number((BigInt(cl) * BigInt(ml | 1)) & 0xffffffffn);
  });
}

/** The definition of json-memory-digest.ts written out plainly: every term recomputed. */
function reference(mems: (Record<string, unknown> | undefined)[], version: 2 | 3 = 2): string {
  const sum = new Uint32Array(8);
  let count = 0;
  const addLanes = (d: number[]): void => {
    for (let l = 0; l < 8; l++) sum[l] = sum[l] + d[l];
  };
  const add = (line: string): void => addLanes(lanesOf(line));
  mems.forEach((mem, i) => {
    for (const [k, v] of Object.entries(mem ?? {})) {
      if (SLOTS.has(k) || v === undefined) continue;
      count++;
      const prefix = `${i}\n${JSON.stringify(k)}\n`;
      const s = v as MemoryStreamState;
      if (isStream(v)) {
        add(`s\n${prefix}${canonicalJson(s.nextId)}`);
        for (const e of s.entries)
          if (version === 2) add(`e\n${prefix}${canonicalJson(e)}`);
          else addLanes(boundTerm(prefix, e as unknown as Record<string, unknown>));
      } else add(`v\n${prefix}${canonicalJson(v as never)}`);
    }
  });
  if (count === 0) return BASE;
  const hex = [...sum].map((x) => x.toString(16).padStart(8, '0')).join('');
  return createHash('sha256')
    .update(`grapevine-state/${version}\n${BASE}\n${hex}`)
    .digest('hex')
    .slice(0, 16);
}

/** The definition's stream: keys entries and nextId only, entries with strictly ascending ids. */
function isStream(v: unknown): v is MemoryStreamState {
  if (!v || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).length !== 2) return false;
  const s = v as MemoryStreamState;
  if (!Array.isArray(s.entries) || typeof s.nextId !== 'number') return false;
  return s.entries.every((e, n) => typeof e.id === 'number' && (n === 0 || e.id > s.entries[n - 1].id));
}

const say = (t: number, text: string, importance?: number) => ({
  t,
  kind: 'observation' as const,
  text,
  ...(importance === undefined ? {} : { importance }),
});

describe('JsonMemoryDigest (log formats 2 and 3 state of JSON memory)', () => {
  it.each([2, 3] as const)(
    'format %i equals the plain definition after every insert, eviction, replacement and removal',
    (version) => {
      const digest = new JsonMemoryDigest(3, version);
      const mems: (Record<string, unknown> | undefined)[] = [undefined, undefined, undefined];
      const check = (): void => {
        mems.forEach((m, i) => {
          if (m) digest.update(i, m, SLOTS);
        });
        expect(digest.hex(BASE)).toBe(reference(mems, version));
      };
      check(); // no JSON memory: the base itself
      expect(digest.hex(BASE)).toBe(BASE);
      let a = emptyMemory();
      let b = emptyMemory();
      for (let t = 1; t <= 30; t++) {
        // capped at 8: evictions from the middle (low importance) and from the front
        a = remember(a, [say(t, `a heard ${t}`, 1 + (t % 7)), say(t, `a saw ${t % 4}`)], { maxEntries: 8 });
        if (t % 3 === 0) b = remember(b, say(t, `b ${t}`), { maxEntries: 5 });
        mems[0] = { memory: a, score: t, heard: { fact: `said ${t % 2}` } };
        mems[1] = t % 5 === 0 ? { score: 1 } : { memory: b, fallback: t % 2 === 0 };
        check();
      }
      mems[2] = { memory: structuredClone(a) }; // the same entries in another agent: different terms
      check();
      // Remembering on a restored copy (entries not made by remember): a stream all the same.
      mems[2] = { memory: remember(structuredClone(a), say(31, 'after restore'), { maxEntries: 8 }) };
      check();
      mems[0] = { memory: { nextId: 1, entries: [{ id: 2 }, { id: 1 }] } }; // not a stream: a plain value
      check();
      // Ids outside u32 (negative, fractional, huge) take the hashed multiplier.
      mems[1] = {
        memory: {
          nextId: 2 ** 40,
          entries: [
            { id: -3, x: 1 },
            { id: 0.5, x: 1 },
            { id: 2 ** 33, x: 2 },
          ],
        },
      };
      check();
    },
  );

  it.each([2, 3] as const)(
    'format %i sees an edit of an entry that is not frozen, and ignores history',
    (version) => {
      const entry = { id: 0, t: 1, kind: 'observation', text: 'x', importance: 2 };
      const mem = { memory: { nextId: 1, entries: [entry] } };
      const digest = new JsonMemoryDigest(1, version);
      digest.update(0, mem, SLOTS);
      entry.text = 'y';
      const edited = { memory: { nextId: 1, entries: [entry] } };
      digest.update(0, edited, SLOTS);
      expect(digest.hex(BASE)).toBe(reference([edited], version));
      const fresh = new JsonMemoryDigest(1, version);
      fresh.update(0, structuredClone(edited), SLOTS);
      expect(fresh.hex(BASE)).toBe(digest.hex(BASE));
      digest.reset();
      expect(digest.hex(BASE)).toBe(BASE);
    },
  );

  it.each([2, 3] as const)('format %i tells apart agents, keys and values', (version) => {
    const one = (i: number, mem: Record<string, unknown>): string => {
      const d = new JsonMemoryDigest(2, version);
      d.update(i, mem, SLOTS);
      return d.hex(BASE);
    };
    const m = { memory: remember(emptyMemory(), say(1, 'hello')) };
    const seen = new Set([one(0, m), one(1, m), one(0, { other: m.memory }), one(0, { memory: 'hello' })]);
    expect(seen.size).toBe(4);
    expect(one(0, { note: 'x' })).toBe(reference([{ note: 'x' }], version));
  });

  it('format 3 tells apart swapped entries and lines heard by several agents', () => {
    const hear = (texts: string[]) =>
      remember(
        emptyMemory(),
        texts.map((x) => say(1, x, 3)),
      );
    const hex = (mems: Record<string, unknown>[]): string => {
      const d = new JsonMemoryDigest(mems.length, 3);
      mems.forEach((m, i) => {
        d.update(i, m, SLOTS);
      });
      return d.hex(BASE);
    };
    // The same two lines in the other order (ids swapped): a sum of content terms alone would not see it.
    const ab = hex([{ memory: hear(['a', 'b']) }]);
    const ba = hex([{ memory: hear(['b', 'a']) }]);
    expect(ab).not.toBe(ba);
    // Two hearers of the same lines (one content hash each line) versus the lines swapped between them.
    const both = [{ memory: hear(['a', 'b']) }, { memory: hear(['b', 'a']) }];
    const swapped = [{ memory: hear(['b', 'a']) }, { memory: hear(['a', 'b']) }];
    expect(hex(both)).toBe(reference(both, 3));
    expect(hex(swapped)).toBe(reference(swapped, 3));
    expect(hex(both)).not.toBe(hex(swapped));
    // Same text, different tick, source or importance: different content, even in one tick's memo.
    const d = new JsonMemoryDigest(3, 3);
    const mems = [
      { memory: remember(emptyMemory(), say(1, 'x', 3)) },
      { memory: remember(emptyMemory(), { ...say(2, 'x', 3), source: 'Ann' }) },
      { memory: remember(emptyMemory(), say(1, 'x', 4)) },
    ];
    mems.forEach((m, i) => {
      d.update(i, m, SLOTS);
    });
    expect(d.hex(BASE)).toBe(reference(mems, 3));
  });

  it('pins one value of each format (guards the definitions against a silent change)', () => {
    const m = {
      memory: remember(emptyMemory(), [say(1, 'hello', 2), { ...say(1, 'hi', 5), source: 'Bo' }]),
      note: 'x',
    };
    const pinned = (version: 2 | 3): string => {
      const d = new JsonMemoryDigest(1, version);
      d.update(0, m, SLOTS);
      return d.hex(BASE);
    };
    expect(pinned(2)).toBe(reference([m], 2));
    expect(pinned(3)).toBe(reference([m], 3));
    expect([pinned(2), pinned(3)]).toEqual(['92d7922aaf25f33a', '30250460a28402ee']);
  });

  it('writes a remembered entry as canonicalJson does (escapes, source, fractions, ids)', () => {
    const texts = ['plain', 'quote " and \\ back', 'line\nbreak\ttab', 'unicode é ☃ \u2028 😀', ''];
    let mem = emptyMemory();
    texts.forEach((text, n) => {
      const m = { t: n * 0.5, kind: 'observation' as const, text, importance: 1 + n * 1.7 };
      mem = remember(mem, n % 2 ? { ...m, source: `src "${n}"` } : m);
    });
    for (const e of mem.entries) {
      expect(entryJson(e)).toBe(canonicalJson(e));
      const { id: _id, ...content } = e;
      expect(entryContentJson(e)).toBe(canonicalJson(content));
    }
    // not made by remember (a restored copy): canonicalJson itself
    const copy = JSON.parse(JSON.stringify(mem.entries[1]));
    expect(entryJson(copy)).toBe(canonicalJson(copy));
  });
});
