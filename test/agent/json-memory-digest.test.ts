import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { entryJson } from '../../src/agent/entry-json.ts';
import { JsonMemoryDigest } from '../../src/agent/json-memory-digest.ts';
import { canonicalJson } from '../../src/core/index.ts';
import { emptyMemory, type MemoryStreamState, remember } from '../../src/memory/index.ts';

const SLOTS: ReadonlySet<string> = new Set(['score']);
const BASE = '0123456789abcdef';

/** The definition of json-memory-digest.ts written out plainly: every term recomputed. */
function reference(mems: (Record<string, unknown> | undefined)[]): string {
  const sum = new Uint32Array(8);
  let count = 0;
  const add = (line: string): void => {
    const d = createHash('sha256').update(line).digest();
    for (let l = 0; l < 8; l++) sum[l] = sum[l] + d.readUInt32LE(l * 4);
  };
  mems.forEach((mem, i) => {
    for (const [k, v] of Object.entries(mem ?? {})) {
      if (SLOTS.has(k) || v === undefined) continue;
      count++;
      const prefix = `${i}\n${JSON.stringify(k)}\n`;
      const s = v as MemoryStreamState;
      if (isStream(v)) {
        add(`s\n${prefix}${canonicalJson(s.nextId)}`);
        for (const e of s.entries) add(`e\n${prefix}${canonicalJson(e)}`);
      } else add(`v\n${prefix}${canonicalJson(v as never)}`);
    }
  });
  if (count === 0) return BASE;
  const hex = [...sum].map((x) => x.toString(16).padStart(8, '0')).join('');
  return createHash('sha256').update(`grapevine-state/2\n${BASE}\n${hex}`).digest('hex').slice(0, 16);
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

describe('JsonMemoryDigest (log format 2 state of JSON memory)', () => {
  it('equals the plain definition after every insert, eviction, replacement and removal', () => {
    const digest = new JsonMemoryDigest(3);
    const mems: (Record<string, unknown> | undefined)[] = [undefined, undefined, undefined];
    const check = (): void => {
      mems.forEach((m, i) => {
        if (m) digest.update(i, m, SLOTS);
      });
      expect(digest.hex(BASE)).toBe(reference(mems));
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
  });

  it('sees an edit of an entry that is not frozen, and ignores history', () => {
    const entry = { id: 0, t: 1, kind: 'observation', text: 'x', importance: 2 };
    const mem = { memory: { nextId: 1, entries: [entry] } };
    const digest = new JsonMemoryDigest(1);
    digest.update(0, mem, SLOTS);
    entry.text = 'y';
    const edited = { memory: { nextId: 1, entries: [entry] } };
    digest.update(0, edited, SLOTS);
    expect(digest.hex(BASE)).toBe(reference([edited]));
    const fresh = new JsonMemoryDigest(1);
    fresh.update(0, structuredClone(edited), SLOTS);
    expect(fresh.hex(BASE)).toBe(digest.hex(BASE));
    digest.reset();
    expect(digest.hex(BASE)).toBe(BASE);
  });

  it('tells apart agents, keys and values (a pinned value guards the definition)', () => {
    const one = (i: number, mem: Record<string, unknown>): string => {
      const d = new JsonMemoryDigest(2);
      d.update(i, mem, SLOTS);
      return d.hex(BASE);
    };
    const m = { memory: remember(emptyMemory(), say(1, 'hello')) };
    const seen = new Set([one(0, m), one(1, m), one(0, { other: m.memory }), one(0, { memory: 'hello' })]);
    expect(seen.size).toBe(4);
    expect(one(0, { note: 'x' })).toBe(reference([{ note: 'x' }]));
  });

  it('writes a remembered entry as canonicalJson does (escapes, source, fractions, ids)', () => {
    const texts = ['plain', 'quote " and \\ back', 'line\nbreak\ttab', 'unicode é ☃ \u2028 😀', ''];
    let mem = emptyMemory();
    texts.forEach((text, n) => {
      const m = { t: n * 0.5, kind: 'observation' as const, text, importance: 1 + n * 1.7 };
      mem = remember(mem, n % 2 ? { ...m, source: `src "${n}"` } : m);
    });
    for (const e of mem.entries) expect(entryJson(e)).toBe(canonicalJson(e));
    // not made by remember (a restored copy): canonicalJson itself
    const copy = JSON.parse(JSON.stringify(mem.entries[1]));
    expect(entryJson(copy)).toBe(canonicalJson(copy));
  });
});
