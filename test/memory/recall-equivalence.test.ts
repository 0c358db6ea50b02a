import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import {
  emptyMemory,
  LexicalRelevance,
  type MemoryStreamState,
  type NewMemory,
  recall,
  remember,
  tokenize,
} from '../../src/memory/index.ts';
import { fillerMemories, streamOf } from './fixtures.ts';

/** The scoring as first written: every text re-tokenised into a Set, terms summed in sorted order. */
function referenceScores(query: string, texts: readonly string[]): number[] {
  const terms = [...new Set(tokenize(query))].sort();
  if (terms.length === 0 || texts.length === 0) return texts.map(() => 0);
  const docs = texts.map((text) => new Set(tokenize(text)));
  const idf = terms.map((term) => {
    let containing = 0;
    for (const doc of docs) if (doc.has(term)) containing++;
    return Math.log(1 + (docs.length - containing + 0.5) / (containing + 0.5));
  });
  let total = 0;
  for (const w of idf) total += w;
  return docs.map((doc) => {
    let sum = 0;
    terms.forEach((term, i) => {
      if (doc.has(term)) sum += idf[i];
    });
    return sum / total;
  });
}

const QUERIES = [
  'Alice the market',
  'painted school river',
  'Gus Gus bakery!',
  '',
  'nothing matches',
  'mill',
];

describe('lexical recall with per-entry terms and postings', () => {
  const state = streamOf(fillerMemories(300, 'equivalence'));
  const texts = state.entries.map((e) => e.text);

  it('gives bit-identical scores to the re-tokenising reference, by text and by entry', () => {
    const scorer = new LexicalRelevance();
    for (const q of QUERIES) {
      const expected = referenceScores(q, texts);
      expect(scorer.scoreSync(q, texts)).toEqual(expected);
      expect(scorer.scoreEntries(q, state.entries)).toEqual(expected);
      expect(scorer.scoreEntries(q, state.entries)).toEqual(expected); // second time from the kept terms
    }
  });

  it('ranks as the reference scores rank (recorded case: top ids)', () => {
    const ranked = recall(state, 'Alice painted the old mill', { k: 8, now: 300 }).map((e) => e.id);
    const byReference = recall(state, 'Alice painted the old mill', {
      k: 8,
      now: 300,
      relevance: { scoreSync: referenceScores, score: async (q, t) => referenceScores(q, t) },
    }).map((e) => e.id);
    expect(ranked).toEqual(byReference);
    expect(new Set(ranked).size).toBe(8);
  });
});

describe('recall with the query in parts', () => {
  it('ranks as the parts joined by spaces', () => {
    const state = streamOf(fillerMemories(200, 'parts'));
    const parts = ["Alice's market", 'the old mill!', 'Gus painted', '', 'river'];
    for (let n = 1; n <= parts.length; n++) {
      const some = parts.slice(0, n);
      expect(recall(state, some, { k: 12 })).toEqual(recall(state, some.join(' '), { k: 12 }));
      expect(recall(state, some, { k: 12 })).toEqual(recall(state, some.join(' '), { k: 12 }));
    }
  });
});

describe('lexical scores with the query in parts, as the vocabulary grows', () => {
  it('are bit-identical to the reference, whether the query terms are ranked yet or not', () => {
    // A fresh scorer: early queries meet unranked terms (sorted as strings), later ones
    // ranked terms (sorted as integers), with new words arriving all along.
    const scorer = new LexicalRelevance();
    const rng = new SeededStream('vocabulary');
    const word = () => `w${rng.int(400).toString(36)}`;
    const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
    for (let round = 0; round < 60; round++) {
      const state = streamOf(
        Array.from({ length: 30 }, (_, i) => ({
          t: i,
          kind: 'observation' as const,
          text: `${sentence(4)} ${QUERIES[i % QUERIES.length]}`,
          importance: 1 + (i % 5),
        })),
      );
      const texts = state.entries.map((e) => e.text);
      const parts = [sentence(3), 'Alice the market', sentence(2 + (round % 4)), ''];
      const expected = referenceScores(parts.join(' '), texts);
      expect(scorer.scoreEntriesByParts(parts, state.entries)).toEqual(expected);
      expect(scorer.scoreEntriesByParts(parts, state.entries)).toEqual(expected);
    }
  });
});

describe('lexical scores of one inbox heard by many agents', () => {
  it('are bit-identical to the reference for every hearer, whose streams differ in size and words', () => {
    // As in a broadcast square: consecutive recalls with the same parts (a new array each
    // time) over different streams, new words arriving in each stream, then another inbox.
    const scorer = new LexicalRelevance();
    const rng = new SeededStream('broadcast');
    const word = () => `v${rng.int(300).toString(36)}`;
    const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
    for (let tick = 0; tick < 8; tick++) {
      const inbox = Array.from({ length: 6 }, () => sentence(3 + rng.int(4)));
      for (let hearer = 0; hearer < 5; hearer++) {
        const size = 5 + rng.int(40);
        const state = streamOf(
          Array.from({ length: size }, (_, i) => ({
            t: i,
            kind: 'observation' as const,
            text: i % 3 === 0 ? inbox[i % inbox.length] : sentence(5),
            importance: 1 + (i % 5),
          })),
        );
        const texts = state.entries.map((e) => e.text);
        const parts = hearer === 4 ? inbox.slice(1) : inbox.slice();
        expect(scorer.scoreEntriesByParts(parts, state.entries)).toEqual(
          referenceScores(parts.join(' '), texts),
        );
      }
    }
  });
});

describe('lexical scores after recalls that counted other words', () => {
  it('are bit-identical to the reference when a query meets words earlier recalls counted but did not ask for', () => {
    // Each recall counts every term of its texts and weighs only its query's: a later query
    // asking for words that earlier texts held (and earlier queries did not) must start from
    // clean counts and weights, and texts must not keep weights of an earlier query.
    const scorer = new LexicalRelevance();
    const rng = new SeededStream('scratch');
    const word = () => `u${rng.int(60).toString(36)}`;
    const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
    const texts = Array.from({ length: 40 }, () => sentence(8));
    for (let round = 0; round < 30; round++) {
      const some = texts.slice(round % 7, 20 + (round % 13));
      const query = round % 3 === 0 ? sentence(1) : sentence(2 + (round % 5));
      expect(scorer.scoreSync(query, some)).toEqual(referenceScores(query, some));
    }
    // A query of no counted word, then one of every word: zero, then the reference again.
    expect(scorer.scoreSync('zzz', texts)).toEqual(texts.map(() => 0));
    const all = texts.join(' ');
    expect(scorer.scoreSync(all, texts)).toEqual(referenceScores(all, texts));
  });
});

describe('lexical scores of streams whose packed terms were carried by remember', () => {
  const query = 'Alice painted the old mill by the river market';
  const textsOf = (state: MemoryStreamState) => state.entries.map((e) => e.text);

  it('are bit-identical to the reference along a chain of remembers with evictions, old streams included', () => {
    const scorer = new LexicalRelevance();
    const rng = new SeededStream('carry');
    let state = remember(emptyMemory(), fillerMemories(20, 'carry0'), { maxEntries: 60 });
    const kept: MemoryStreamState[] = [];
    for (let t = 1; t <= 30; t++) {
      // Packs this stream's terms (first time) or reads those carried from the last one.
      expect(scorer.scoreEntries(query, state.entries)).toEqual(referenceScores(query, textsOf(state)));
      kept.push(state);
      const next = remember(state, fillerMemories(1 + rng.int(15), `carry${t}`, t), { maxEntries: 60 });
      scorer.carryTerms(state.entries, next.entries);
      state = next;
    }
    expect(state.entries.length).toBe(60);
    // Streams whose terms were handed on are packed again when scored.
    for (const old of kept)
      expect(scorer.scoreEntriesByParts(['Alice painted', 'the old mill'], old.entries)).toEqual(
        referenceScores('Alice painted the old mill', textsOf(old)),
      );
  });

  it('rank as the reference in recall, the default scorer carrying the terms from stream to stream', () => {
    const rng = new SeededStream('carry-recall');
    const reference = {
      scoreSync: referenceScores,
      score: async (q: string, t: readonly string[]) => referenceScores(q, t),
    };
    let state = emptyMemory();
    for (let t = 0; t < 40; t++) {
      state = remember(state, fillerMemories(1 + rng.int(10), `r${t}`, t), { maxEntries: 50 });
      const parts = ['Alice painted', 'the old mill', `river ${t % 3 === 0 ? 'market' : 'bakery'}`];
      expect(recall(state, parts, { k: 12, now: t })).toEqual(
        recall(state, parts.join(' '), { k: 12, now: t, relevance: reference }),
      );
    }
  });

  it('count each term in as many texts as hold it, after trailing evictions, new words and turnover', () => {
    const scorer = new LexicalRelevance();
    const m = (text: string, importance: number): NewMemory => ({
      t: 1,
      kind: 'observation',
      text,
      importance,
    });
    const common = ['Alice painted the mill', 'the river market opens', 'Alice saw the river', 'mill wheel'];
    let state = remember(emptyMemory(), [
      ...common.map((text) => m(text, 9)),
      ...common.map((text) => m(`${text} again`, 9)),
      m('zebra quokka mill', 1),
    ]);
    const q = 'Alice river mill quokka zebra wombat';
    const step = (memories: NewMemory[], maxEntries: number) => {
      const next = remember(state, memories, { maxEntries });
      scorer.carryTerms(state.entries, next.entries);
      state = next;
      expect(scorer.scoreEntries(q, state.entries)).toEqual(referenceScores(q, textsOf(state)));
    };
    expect(scorer.scoreEntries(q, state.entries)).toEqual(referenceScores(q, textsOf(state)));
    // The last (least important) goes: its terms must no longer count.
    step([], 8);
    expect(textsOf(state)).not.toContain('zebra quokka mill');
    // New words (interned after the counts were made) are counted as they arrive.
    step([m('wombat quokka Alice', 9)], 8);
    // Most of the stream replaced at once: counted afresh.
    step(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => m(`wombat ${x} river`, 9)),
      8,
    );
    step([m('zebra mill', 9)], 8);
  });

  it('are not kept for a list that can change', () => {
    const scorer = new LexicalRelevance();
    const state = streamOf(fillerMemories(30, 'unfrozen'));
    const entries = state.entries.slice(0, 10);
    expect(scorer.scoreEntries(query, entries)).toEqual(
      referenceScores(query, textsOf({ nextId: 0, entries })),
    );
    entries.push(...state.entries.slice(10));
    expect(scorer.scoreEntries(query, entries)).toEqual(referenceScores(query, textsOf(state)));
    // Carrying onto a list that can change keeps nothing either.
    scorer.carryTerms(state.entries, entries);
    entries.pop();
    expect(scorer.scoreEntries(query, entries)).toEqual(
      referenceScores(query, textsOf({ nextId: 0, entries })),
    );
  });
});

describe('remember', () => {
  it('remembering an inbox at once keeps the same stream as one message at a time, evictions included', () => {
    const rng = new SeededStream('batch');
    let one: MemoryStreamState = emptyMemory();
    let batch: MemoryStreamState = emptyMemory();
    for (let t = 0; t < 40; t++) {
      const inbox: NewMemory[] = fillerMemories(1 + rng.int(12), `tick${t}`, t).map((m) => ({ ...m, t }));
      for (const m of inbox) one = remember(one, m, { maxEntries: 50 });
      batch = remember(batch, inbox, { maxEntries: 50 });
      expect(batch).toEqual(one);
    }
    expect(one.entries.length).toBe(50);
  });

  it('freezes the entries it creates, and the stream it returns', () => {
    const s = remember(emptyMemory(), { t: 1, kind: 'observation', text: 'x' });
    expect(Object.isFrozen(s.entries[0])).toBe(true);
    expect(Object.isFrozen(s) && Object.isFrozen(s.entries)).toBe(true);
    expect(() => s.entries.push(s.entries[0])).toThrow(TypeError);
  });
});
