import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import {
  emptyMemory,
  LexicalRelevance,
  type MemoryEntry,
  type MemoryKind,
  type MemoryStreamState,
  type NewMemory,
  recall,
  remember,
} from '../../src/memory/index.ts';
import { headIndexOf } from '../../src/memory/lexical-index.ts';

const WORDS = [
  'Ada',
  'Bob',
  'Cy',
  'bakery',
  'mill',
  'river',
  'secret',
  'recipe',
  'closing',
  'market',
  'fire',
  'rumour',
  'the',
  'a',
  'heard',
  'saw',
];
const KINDS: readonly MemoryKind[] = ['observation', 'action', 'reflection'];

function words(rng: SeededStream, n: number): string {
  return Array.from({ length: n }, () => rng.pick(WORDS)).join(' ');
}

function memoryAt(rng: SeededStream, t: number): NewMemory {
  return { t, kind: rng.pick(KINDS), text: words(rng, 1 + rng.int(6)), importance: 1 + rng.int(10) };
}

/** The same scores by a scorer that walks every entry's text (no entry data, no index). */
function walked(scorer: LexicalRelevance, state: MemoryStreamState, query: string): number[] {
  return scorer.scoreSync(
    query,
    state.entries.map((e) => e.text),
  );
}

/** Recall by a scorer that is not a LexicalRelevance instance: texts walked, never indexed. */
function walkedRecall(state: MemoryStreamState, query: string, now: number, k: number): number[] {
  const plain = new LexicalRelevance();
  const relevance = {
    scoreSync: (q: string, texts: readonly string[]) => plain.scoreSync(q, texts),
    score: async (q: string, texts: readonly string[]) => plain.scoreSync(q, texts),
  };
  return recall(state, query, { now, k, relevance }).map((e) => e.id);
}

describe('lexical recall by an inverted index of the stream', () => {
  it('equals the walk over every entry across forks, restores, snapshots and evictions (seeded cases)', () => {
    let recalls = 0;
    let reused = 0;
    for (let seed = 0; seed < 8; seed++) {
      const rng = new SeededStream(`lexical-index-${seed}`);
      const indexed = new LexicalRelevance();
      const other = new LexicalRelevance();
      const maxEntries = 8 + rng.int(40);
      // A pool of histories: forks share entries (and arrays) with their parent.
      const pool: MemoryStreamState[] = [emptyMemory()];
      let t = 0;
      for (let step = 0; step < 400; step++) {
        const at = rng.int(pool.length);
        const state = pool[at];
        const op = rng.int(40);
        if (op < 16) {
          t += rng.int(3);
          const batch = Array.from({ length: 1 + rng.int(3) }, () => memoryAt(rng, t));
          pool[at] = remember(state, batch, { maxEntries });
        } else if (op < 19) {
          pool.push(state); // a fork: both branches go on from the same arrays
        } else if (op === 19 && rng.chance(0.3)) {
          // A restore from a snapshot: plain copies of the entries (no derived data, so the
          // branch is walked until they are evicted).
          pool[at] = JSON.parse(JSON.stringify(state)) as MemoryStreamState;
        } else if (op < 24 && pool.length > 1) {
          pool.splice(at, 1); // a branch dropped
        } else {
          const query = words(rng, rng.int(5));
          // The index belongs to one scorer; another scorer (or the default one) replaces it.
          const pick = rng.int(10);
          const scorer = pick < 8 ? indexed : other;
          const relevance = pick === 9 ? undefined : scorer;
          const before = headIndexOf(state.entries);
          if (before !== undefined && before.owner === scorer) reused++;
          recalls++;
          const expected = walked(new LexicalRelevance(), state, query);
          expect(scorer.scoreEntries(query, state.entries)).toEqual(expected);
          expect(scorer.scoreEntriesByParts(query.split(' '), state.entries)).toEqual(expected);
          const now = t + rng.int(3);
          const k = 1 + rng.int(12);
          expect(recall(state, query, { now, k, relevance }).map((e) => e.id)).toEqual(
            walkedRecall(state, query, now, k),
          );
          const kinds = [rng.pick(KINDS)];
          expect(recall(state, query, { now, k, kinds, relevance }).map((e) => e.id)).toEqual(
            recall(state, query, { now, k, kinds, relevance: new LexicalRelevance() }).map((e) => e.id),
          );
        }
      }
    }
    // Many recalls used an index kept from an earlier recall (carried along, entries added
    // and evicted since), not only a fresh one or the walk.
    expect(recalls).toBeGreaterThan(1000);
    expect(reused).toBeGreaterThan(recalls / 4);
  });

  it('follows a straight history and leaves an older array or a fork to an index of its own', () => {
    const scorer = new LexicalRelevance();
    let state = emptyMemory();
    for (let t = 0; t < 30; t++)
      state = remember(state, { t, kind: 'observation', text: `Ada saw the mill ${t}` });
    scorer.scoreEntries('mill', state.entries);
    const ix = headIndexOf(state.entries);
    expect(ix).toBeDefined();
    const parent = state;
    const child = remember(parent, { t: 30, kind: 'observation', text: 'Bob heard a rumour' });
    expect(headIndexOf(child.entries)).toBe(ix); // handed on
    expect(headIndexOf(parent.entries)).toBeUndefined(); // no longer the newest array
    const sibling = remember(parent, { t: 30, kind: 'observation', text: 'Cy saw a fire' });
    expect(headIndexOf(sibling.entries)).toBeUndefined();
    expect(scorer.scoreEntries('rumour fire mill', sibling.entries)).toEqual(
      walked(scorer, sibling, 'rumour fire mill'),
    );
    expect(headIndexOf(sibling.entries)).not.toBe(ix);
    expect(scorer.scoreEntries('rumour fire mill', child.entries)).toEqual(
      walked(scorer, child, 'rumour fire mill'),
    );
  });

  it('is not handed on when a state reuses ids at or below the indexed ones', () => {
    // Entries 0..9 indexed; a state with that array and nextId 5 whose new entry (id 5,
    // important) evicts 5..9: the ids still increase, but the new entry was never indexed.
    const scorer = new LexicalRelevance();
    const kept = Array.from({ length: 5 }, (_, i) => ({
      t: 0,
      kind: 'observation' as const,
      text: `Ada ${i}`,
      importance: 10,
    }));
    const dropped = Array.from({ length: 5 }, (_, i) => ({
      t: 0,
      kind: 'observation' as const,
      text: `Bob ${i}`,
      importance: 1,
    }));
    const state = remember(emptyMemory(), [...kept, ...dropped]);
    scorer.scoreEntries('Ada', state.entries);
    const reused = remember(
      { nextId: 5, entries: state.entries },
      { t: 0, kind: 'observation', text: 'secret recipe', importance: 10 },
      { maxEntries: 6 },
    );
    expect(reused.entries.map((e: MemoryEntry) => e.id)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(scorer.scoreEntries('secret', reused.entries)).toEqual(walked(scorer, reused, 'secret'));
    expect(scorer.scoreEntries('secret', reused.entries)[5]).toBe(1);
  });
});
