import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { SeededStream } from '../../src/core/index.ts';
import { emptyMemory, type MemoryStreamState, type NewMemory, remember } from '../../src/memory/index.ts';

/** Recursively freezes a value, so that any mutation in the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const SUBJECTS = ['Alice', 'Bob', 'Dana', 'Eve', 'Frank', 'Gus'];
const VERBS = ['walked to', 'looked at', 'talked about', 'waited near', 'cleaned', 'painted'];
const OBJECTS = ['the market', 'the river', 'the old mill', 'the bakery', 'the square', 'the school'];

/** `n` mundane observations drawn from a seeded stream, one per tick from `t0`. */
export function fillerMemories(n: number, seed = 'filler', t0 = 0): NewMemory[] {
  const rng = new SeededStream(seed);
  return Array.from({ length: n }, (_, i) => ({
    t: t0 + i,
    kind: 'observation' as const,
    text: `${rng.pick(SUBJECTS)} ${rng.pick(VERBS)} ${rng.pick(OBJECTS)}`,
    importance: 1 + rng.int(5),
  }));
}

/** A stream holding `memories`, remembered one by one. */
export function streamOf(memories: readonly NewMemory[], maxEntries?: number): MemoryStreamState {
  let state = emptyMemory();
  for (const m of memories) state = remember(state, m, { maxEntries });
  return state;
}

/** Concepts of {@link ConceptEmbeddings}: each word list is one dimension. */
const CONCEPTS: readonly (readonly string[])[] = [
  ['money', 'cash', 'coins', 'gold', 'wealth', 'rich', 'bank'],
  ['weather', 'rain', 'storm', 'sunny', 'cloud', 'wind'],
  ['food', 'bread', 'soup', 'cake', 'dinner', 'hungry'],
  ['secret', 'hidden', 'hid', 'confidential', 'whisper', 'conceal'],
  ['illness', 'sick', 'fever', 'doctor', 'cough', 'medicine'],
];

/**
 * A deterministic test double of a LangChain embeddings model: a text's vector counts, per
 * concept, the words of the text that belong to it, plus a small constant so that no
 * vector is zero. Texts about the same concept are close even when they share no word.
 */
export class ConceptEmbeddings implements EmbeddingsInterface {
  documentCalls: string[][] = [];
  queryCalls: string[] = [];
  failNext = false;

  private vector(text: string): number[] {
    const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
    return [...CONCEPTS.map((c) => words.filter((w) => c.includes(w)).length), 0.05];
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    this.documentCalls.push([...documents]);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('embeddings endpoint down');
    }
    return documents.map((d) => this.vector(d));
  }

  async embedQuery(document: string): Promise<number[]> {
    this.queryCalls.push(document);
    return this.vector(document);
  }
}
