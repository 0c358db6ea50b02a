import { describe, expect, it } from 'vitest';
import { ConfigError, canonicalJson, type Json, RunError } from '../../src/core/index.ts';
import {
  DEFAULT_MAX_ENTRIES,
  emptyMemory,
  latestTick,
  type MemoryStreamState,
  parseMemoryState,
  recall,
  remember,
} from '../../src/memory/index.ts';
import { deepFreeze, fillerMemories, streamOf } from './fixtures.ts';

describe('remember', () => {
  it('appends entries with per-agent ids and never modifies its input', () => {
    const s0 = deepFreeze(emptyMemory());
    const s1 = deepFreeze(
      remember(s0, { t: 3, kind: 'observation', text: 'hello', source: 'Bob', importance: 2 }),
    );
    const s2 = remember(s1, { t: 4, kind: 'action', text: 'said hi back', importance: 3 });
    expect(s0).toEqual({ nextId: 0, entries: [] });
    expect(s1.entries).toHaveLength(1);
    expect(s2).toEqual({
      nextId: 2,
      entries: [
        { id: 0, t: 3, kind: 'observation', text: 'hello', importance: 2, source: 'Bob' },
        { id: 1, t: 4, kind: 'action', text: 'said hi back', importance: 3 },
      ],
    });
    expect('source' in s2.entries[1]).toBe(false);
  });

  it('accepts a batch, in order', () => {
    const s = remember(emptyMemory(), fillerMemories(3));
    expect(s.entries.map((e) => e.id)).toEqual([0, 1, 2]);
    expect(s.nextId).toBe(3);
  });

  it('estimates missing importance, injects a custom rater, rounds and clamps', () => {
    const m = { t: 0, kind: 'observation' as const };
    const s = remember(emptyMemory(), [
      { ...m, text: 'the weather is fine' },
      { ...m, text: 'URGENT: never tell anyone the secret!' },
      { ...m, text: 'x', importance: 42 },
      { ...m, text: 'y', importance: 0 },
      { ...m, text: 'z', importance: 3.6 },
    ]);
    const imp = s.entries.map((e) => e.importance);
    expect(imp[0]).toBeLessThan(imp[1]);
    expect(imp.slice(2)).toEqual([10, 1, 4]);
    const seen: unknown[] = [];
    const custom = remember(
      emptyMemory(),
      { ...m, text: 'abc', source: 'Eve' },
      {
        importance: (input) => {
          seen.push(input);
          return 7;
        },
      },
    );
    expect(custom.entries[0].importance).toBe(7);
    expect(seen).toEqual([{ kind: 'observation', text: 'abc', source: 'Eve' }]);
  });

  it('is plain JSON state', () => {
    const state: MemoryStreamState = streamOf(fillerMemories(5));
    const json: Json = state;
    expect(JSON.parse(canonicalJson(json))).toEqual(state);
  });

  it('rejects bad options and bad memories', () => {
    const m = { t: 0, kind: 'observation' as const, text: 'a' };
    expect(() => remember(emptyMemory(), m, { maxEntries: 0 })).toThrow(ConfigError);
    expect(() => remember(emptyMemory(), m, { decay: 1.5 })).toThrow(ConfigError);
    expect(() => remember(emptyMemory(), { ...m, t: Number.NaN })).toThrow(RunError);
    expect(() => remember(emptyMemory(), { ...m, kind: 'dream' as 'action' })).toThrow(RunError);
  });
});

describe('cap eviction', () => {
  it('keeps at most maxEntries (default 500)', () => {
    const s = streamOf(fillerMemories(DEFAULT_MAX_ENTRIES + 20));
    expect(s.entries).toHaveLength(DEFAULT_MAX_ENTRIES);
    expect(s.nextId).toBe(DEFAULT_MAX_ENTRIES + 20);
  });

  it('drops the lowest importance * recency first, and the oldest among equals', () => {
    const obs = (t: number, importance: number, text: string) => ({
      t,
      kind: 'observation' as const,
      text,
      importance,
    });
    let s = streamOf([obs(0, 9, 'vital'), obs(1, 1, 'dull-a'), obs(2, 1, 'dull-b'), obs(3, 5, 'mid')], 4);
    s = remember(s, obs(4, 5, 'new'), { maxEntries: 4 });
    // dull-a and dull-b score alike (1 * 0.99^3 vs 1 * 0.99^2): dull-a is older and lower.
    expect(s.entries.map((e) => e.text)).toEqual(['vital', 'dull-b', 'mid', 'new']);
    s = remember(s, obs(4, 1, 'dull-c'), { maxEntries: 4, decay: 1 });
    // With decay 1 dull-b and dull-c tie at 1: the older (dull-b) goes.
    expect(s.entries.map((e) => e.text)).toEqual(['vital', 'mid', 'new', 'dull-c']);
  });

  it('lets a very important old memory outlive recent mundane ones', () => {
    const s = streamOf(
      [{ t: 0, kind: 'reflection', text: 'the mayor lies', importance: 10 }, ...fillerMemories(50, 'f', 1)],
      10,
    );
    expect(s.entries[0].text).toBe('the mayor lies');
  });

  it('is deterministic: the same inputs give the same state bytes', () => {
    const a = streamOf(fillerMemories(300, 'x'), 40);
    const b = streamOf(fillerMemories(300, 'x'), 40);
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    const batch = remember(emptyMemory(), fillerMemories(300, 'x'), { maxEntries: 40 });
    expect(canonicalJson(batch)).toBe(
      canonicalJson(remember(emptyMemory(), fillerMemories(300, 'x'), { maxEntries: 40 })),
    );
    expect(batch.entries).toHaveLength(40);
  });
});

describe('recall', () => {
  it('is deterministic and does not modify the state', () => {
    const s = deepFreeze(streamOf(fillerMemories(200)));
    const a = recall(s, 'Alice at the market', { k: 20 });
    const b = recall(s, 'Alice at the market', { k: 20 });
    expect(a).toEqual(b);
    expect(a).toHaveLength(20);
  });

  it('prefers the recent memory when relevance and importance are equal', () => {
    const text = 'Bob mentioned the festival';
    const s = streamOf([
      { t: 1, kind: 'observation', text, importance: 4 },
      { t: 50, kind: 'observation', text, importance: 4 },
      { t: 50, kind: 'observation', text, importance: 4 },
    ]);
    expect(recall(s, 'festival', { now: 60 }).map((e) => e.id)).toEqual([2, 1, 0]);
  });

  it('finds the one relevant entry among many', () => {
    // Filler scores at most 1 (recency) + 0.5 (importance <= 5); the key memory, 50 ticks
    // old, scores 0.99^50 + 0.3 + 1 = 1.9 only through relevance.
    const key = 'Carol hid the key under the blue vase';
    const s = remember(streamOf(fillerMemories(300, 'many')), [
      { t: 250, kind: 'observation', text: key, importance: 3, source: 'Carol' },
    ]);
    expect(recall(s, 'Where is the key?', { now: 300, k: 1 })[0].text).toBe(key);
    expect(
      recall(s, 'Where is the key?', { now: 300, weights: { relevance: 0 } }).map((e) => e.text),
    ).not.toContain(key);
    expect(recall(s, 'blue vases', { now: 300, k: 1 })[0].text).toBe(key);
  });

  it('orders by importance when recency and relevance are equal', () => {
    const s = remember(
      emptyMemory(),
      [3, 9, 1, 6].map((importance) => ({ t: 5, kind: 'observation' as const, text: 'news', importance })),
    );
    expect(recall(s, 'news').map((e) => e.importance)).toEqual([9, 6, 3, 1]);
  });

  it('honours weights, kinds, k and now', () => {
    const s = streamOf([
      { t: 0, kind: 'reflection', text: 'the bakery burned', importance: 2 },
      { t: 10, kind: 'observation', text: 'sunny day', importance: 9 },
      { t: 20, kind: 'action', text: 'walked home', importance: 1 },
    ]);
    expect(recall(s, 'bakery', { weights: { relevance: 0, recency: 0 } })[0].text).toBe('sunny day');
    expect(recall(s, 'bakery', { weights: { importance: 0, recency: 0 } })[0].text).toBe('the bakery burned');
    expect(recall(s, 'bakery', { weights: { importance: 0, relevance: 0 } })[0].text).toBe('walked home');
    expect(recall(s, '', { kinds: ['action', 'reflection'], k: Number.POSITIVE_INFINITY })).toHaveLength(2);
    expect(recall(s, 'bakery', { k: 0 })).toEqual([]);
    expect(latestTick(s)).toBe(20);
    expect(() => recall(s, 'x', { k: -1 })).toThrow(ConfigError);
    expect(() => recall(s, 'x', { weights: { recency: -1 } })).toThrow(ConfigError);
    expect(recall(emptyMemory(), 'x')).toEqual([]);
  });

  it('gives identical results after a JSON round trip of the state', () => {
    const s = streamOf(fillerMemories(400, 'rt'), 150);
    const restored = parseMemoryState(JSON.parse(JSON.stringify(s)));
    for (const q of ['Alice', 'the old mill', 'Frank painted the school', ''])
      expect(recall(restored, q, { k: 25, now: 410 })).toEqual(recall(s, q, { k: 25, now: 410 }));
    const next = { t: 401, kind: 'observation' as const, text: 'more' };
    expect(canonicalJson(remember(restored, next, { maxEntries: 150 }))).toBe(
      canonicalJson(remember(s, next, { maxEntries: 150 })),
    );
  });
});

describe('parseMemoryState', () => {
  it('rejects malformed states', () => {
    const good = streamOf(fillerMemories(3));
    const bad: unknown[] = [
      null,
      [],
      { nextId: -1, entries: [] },
      { nextId: 1, entries: {} },
      { ...good, nextId: 2 },
      { ...good, entries: [good.entries[1], good.entries[0]] },
      { ...good, entries: [{ ...good.entries[0], importance: 11 }] },
      { ...good, entries: [{ ...good.entries[0], kind: 'dream' }] },
      { ...good, entries: [{ ...good.entries[0], source: 3 }] },
    ];
    for (const b of bad)
      expect(() => parseMemoryState(b), JSON.stringify(b)).toThrow(/invalid memory stream/);
    expect(parseMemoryState(good)).toBe(good);
  });
});
