import type { MemoryKind } from './memory-entry.ts';
import { tokenize } from './tokenize.ts';

/** What an importance function sees of a memory. */
export interface ImportanceInput {
  kind: MemoryKind;
  text: string;
  source?: string;
}

/** Rates a memory's importance, 1 (mundane) to 10 (life-changing). Must be deterministic. */
export type ImportanceFn = (memory: ImportanceInput) => number;

/** Tunables of {@link createImportanceHeuristic}. */
export interface ImportanceHeuristicOptions {
  /** Starting score per kind. Default observation 2, action 3, reflection 5. */
  base?: Partial<Record<MemoryKind, number>>;
  /** Words or phrases (matched on whole tokens) and their bonus. Default {@link DEFAULT_IMPORTANCE_KEYWORDS}. */
  keywords?: Readonly<Record<string, number>>;
  /** Most the keywords may add together. Default 4. */
  maxKeywordBonus?: number;
}

/** The default keyword bonuses: secrecy, urgency, danger, deceit. */
export const DEFAULT_IMPORTANCE_KEYWORDS: Readonly<Record<string, number>> = {
  secret: 3,
  confidential: 3,
  'never tell': 3,
  "don't tell": 3,
  'do not tell': 3,
  'between us': 2,
  urgent: 2,
  urgently: 2,
  emergency: 3,
  danger: 2,
  dangerous: 2,
  warning: 2,
  betray: 3,
  betrayed: 3,
  lie: 2,
  lied: 2,
  rumour: 1,
  rumor: 1,
  scandal: 2,
  arrested: 3,
  dead: 3,
  died: 3,
  important: 1,
  promise: 1,
};

const DEFAULT_BASE: Record<MemoryKind, number> = { observation: 2, action: 3, reflection: 5 };
/** Tokenizer settings for phrase matching: every word kept, no stemming. */
const ALL_WORDS = { stopWords: new Set<string>(), stem: false };

/** `n` rounded and clamped to the importance scale 1..10 (non-finite values become 1). */
export function clampImportance(n: number): number {
  if (!Number.isFinite(n)) return 1;
  return Math.min(10, Math.max(1, Math.round(n)));
}

/**
 * Builds a deterministic importance heuristic (no LLM): a base by kind, +1 for an
 * exclamation, +1 for a question, +1 per distinct named thing (capitalised word inside a
 * sentence, or a word mixing letters and digits such as `item7`) up to +2, +1 for a
 * shouted word, plus the keyword bonuses (each counted once, capped); clamped to 1..10.
 */
export function createImportanceHeuristic(opts: ImportanceHeuristicOptions = {}): ImportanceFn {
  const base = { ...DEFAULT_BASE, ...opts.base };
  const phrases = Object.entries(opts.keywords ?? DEFAULT_IMPORTANCE_KEYWORDS)
    .map(([phrase, bonus]) => ({ tokens: tokenize(phrase, ALL_WORDS), bonus }))
    .filter((p) => p.tokens.length > 0);
  const maxKeywordBonus = opts.maxKeywordBonus ?? 4;
  const rate = (memory: ImportanceInput): number => {
    const text = memory.text;
    let score = base[memory.kind];
    if (text.includes('!')) score += 1;
    if (text.includes('?')) score += 1;
    score += Math.min(2, countNamed(text));
    if (/(?<![\p{L}\p{N}])\p{Lu}{3,}(?![\p{L}\p{N}])/u.test(text)) score += 1;
    const tokens = tokenize(text, ALL_WORDS);
    let bonus = 0;
    for (const p of phrases) if (containsPhrase(tokens, p.tokens)) bonus += p.bonus;
    return clampImportance(score + Math.min(maxKeywordBonus, bonus));
  };
  return memoByKindAndText(rate);
}

/** Most (kind, text) ratings one heuristic remembers; past it the memo starts afresh. */
const IMPORTANCE_MEMO_SIZE = 20_000;

/**
 * The heuristic reads only the kind and the text (never the source), and is a pure
 * function of them: many agents hearing the same line share one rating.
 */
function memoByKindAndText(rate: ImportanceFn): ImportanceFn {
  // One map per kind: the key is the text itself, never a joined copy of a long text.
  const memo = new Map<MemoryKind, Map<string, number>>();
  let size = 0;
  return (memory) => {
    let byText = memo.get(memory.kind);
    if (!byText) {
      byText = new Map();
      memo.set(memory.kind, byText);
    }
    let score = byText.get(memory.text);
    if (score === undefined) {
      score = rate(memory);
      if (size >= IMPORTANCE_MEMO_SIZE) {
        memo.clear();
        size = 0;
        byText = new Map();
        memo.set(memory.kind, byText);
      }
      byText.set(memory.text, score);
      size++;
    }
    return score;
  };
}

/** The default importance heuristic ({@link createImportanceHeuristic} with no options). */
export const estimateImportance: ImportanceFn = createImportanceHeuristic();

/** Distinct capitalised words not starting a sentence, plus distinct letter-digit ids. */
function countNamed(text: string): number {
  const named = new Set<string>();
  for (const sentence of text.split(/[.!?\n]+/)) {
    const words = sentence.match(/[\p{L}\p{N}_-]+/gu) ?? [];
    words.forEach((w, i) => {
      const isId = /\p{L}/u.test(w) && /\p{N}/u.test(w);
      const isName = i > 0 && w.length > 1 && /^\p{Lu}\p{Ll}/u.test(w);
      if (isId || isName) named.add(w);
    });
  }
  return named.size;
}

function containsPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (tokens[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}
