import { describe, expect, it } from 'vitest';
import { CanonicalJsonCache } from '../../src/agent/canonical-json-cache.ts';
import { canonicalJson } from '../../src/core/index.ts';
import { derivedOf } from '../../src/memory/entry-derived.ts';
import {
  emptyMemory,
  evictLowest,
  fitToBudget,
  LexicalRelevance,
  type MemoryEntry,
  recall,
  remember,
} from '../../src/memory/index.ts';

const made = remember(emptyMemory(), [
  { t: 1, kind: 'observation', text: 'Ada: the bakery has a secret recipe', source: 'Ada' },
  { t: 2, kind: 'action', text: 'Bob (you): I heard about the bakery' },
  { t: 3, kind: 'observation', text: 'Cy: the mill is closing!', source: 'Cy' },
]);

describe('derived data kept on remembered entries', () => {
  it('is invisible to JSON, canonical JSON, structuredClone and deep equality', () => {
    const e = made.entries[0];
    expect(derivedOf(e)).toBeDefined();
    const plain = JSON.parse(JSON.stringify(e)) as MemoryEntry;
    expect(Object.keys(e)).toEqual(Object.keys(plain));
    expect(e).toEqual(plain);
    expect(canonicalJson(e)).toBe(canonicalJson(plain));
    expect(derivedOf(structuredClone(e))).toBeUndefined();
    expect(derivedOf(plain)).toBeUndefined();
  });

  it('gives the same recall, budget and canonical bytes as copies without it', () => {
    const copy = { nextId: made.nextId, entries: made.entries.map((e) => ({ ...e })) };
    for (const query of ['bakery secret', 'mill', 'nothing here']) {
      const a = recall(made, query, { k: 2 }).map((e) => e.id);
      const b = recall(copy, query, { k: 2 }).map((e) => e.id);
      expect(a).toEqual(b);
    }
    expect(fitToBudget(made.entries, 12).map((e) => e.id)).toEqual(
      fitToBudget(copy.entries, 12).map((e) => e.id),
    );
    const cache = new CanonicalJsonCache();
    // Twice: the second time the bytes come from the entries' slots.
    expect(cache.write(made)).toBe(canonicalJson(copy));
    expect(new CanonicalJsonCache().write(made)).toBe(canonicalJson(copy));
  });

  it('keeps the terms of only the first scorer; a second scorer scores the same', () => {
    // New entries at another tick: their own, empty slots (not shared with made's).
    const fresh = remember(
      emptyMemory(),
      made.entries.map((e) => ({ ...e, t: e.t + 1000 })),
    ).entries;
    const own = new LexicalRelevance();
    const other = new LexicalRelevance();
    const first = own.scoreEntries('bakery recipe', fresh);
    expect(other.scoreEntries('bakery recipe', fresh)).toEqual(first);
    expect(own.scoreEntries('bakery recipe', fresh)).toEqual(first);
    expect(derivedOf(fresh[0])?.termsOwner).toBe(own);
    expect(first[0]).toBeGreaterThan(0);
  });

  it('shares one slot among entries of the same text, kind, tick and source (the hearers of a line)', () => {
    const line = { t: 5, kind: 'observation' as const, text: 'Ann: the mill opens at dawn', source: 'Ann' };
    const a = remember(emptyMemory(), line).entries[0];
    const b = remember(remember(emptyMemory(), { t: 1, kind: 'action', text: 'x' }), line).entries[1];
    expect(b.id).not.toBe(a.id);
    expect(derivedOf(b)).toBe(derivedOf(a));
    for (const other of [
      { ...line, t: 6 },
      { ...line, source: 'Bo' },
      { ...line, kind: 'reflection' as const },
    ])
      expect(derivedOf(remember(emptyMemory(), other).entries[0])).not.toBe(derivedOf(a));
    // What the slot keeps is the same for both: the budget's cost and the scorer's terms.
    const scorer = new LexicalRelevance();
    expect(scorer.scoreEntries('mill dawn', [a])).toEqual(scorer.scoreEntries('mill dawn', [b]));
    expect(fitToBudget([a], 1000)).toEqual([a]);
    expect(derivedOf(b)?.cost).toBe(derivedOf(a)?.cost);
    expect(derivedOf(a)?.cost).toBeGreaterThan(0);
  });
});

describe('evictLowest', () => {
  /** The definition: sort (retention, id) ascending and drop the first `count`. */
  function bySort(entries: MemoryEntry[], count: number, now: number, decay: number): number[] {
    const score = (e: MemoryEntry) => e.importance * decay ** Math.max(0, now - e.t);
    const dropped = new Set(
      [...entries]
        .sort((a, b) => score(a) - score(b) || a.id - b.id)
        .slice(0, count)
        .map((e) => e.id),
    );
    return entries.filter((e) => !dropped.has(e.id)).map((e) => e.id);
  }

  it('drops the lowest retention scores, ties to the oldest, as a full sort does', () => {
    // Many ties: importance from a short cycle, ticks repeating.
    const entries: MemoryEntry[] = Array.from({ length: 60 }, (_, id) => ({
      id,
      t: id % 7,
      kind: 'observation',
      text: `m${id}`,
      importance: 1 + ((id * 5) % 4),
    }));
    for (const count of [1, 2, 5, 17, 30, 59])
      for (const decay of [1, 0.9]) {
        const got = evictLowest(entries, count, 6, decay).map((e) => e.id);
        expect(got).toEqual(bySort(entries, count, 6, decay));
      }
    // Ids out of order take the general path and give the same set.
    const shuffled = [...entries.slice(30), ...entries.slice(0, 30)];
    const got = evictLowest(shuffled, 17, 6, 0.9).map((e) => e.id);
    expect(new Set(got)).toEqual(new Set(bySort(entries, 17, 6, 0.9)));
  });

  it('finds the same threshold as a sort on streams of every size and many orders', () => {
    // A small linear congruential generator: the same entries on every run.
    let x = 12345;
    const next = (m: number) => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x % m;
    };
    for (const n of [2, 3, 8, 33, 120, 550]) {
      const entries: MemoryEntry[] = Array.from({ length: n }, (_, id) => ({
        id,
        t: next(40),
        kind: 'observation',
        text: `m${id}`,
        importance: 1 + next(10),
      }));
      for (const count of [1, Math.floor(n / 3), n - 1])
        expect(evictLowest(entries, count, 40, 0.97).map((e) => e.id)).toEqual(
          bySort(entries, count, 40, 0.97),
        );
    }
  });
});
