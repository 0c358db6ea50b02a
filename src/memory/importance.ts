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
  const phrases = phraseIndex(
    Object.entries(opts.keywords ?? DEFAULT_IMPORTANCE_KEYWORDS)
      .map(([phrase, bonus]) => ({ tokens: tokenize(phrase, ALL_WORDS), bonus }))
      .filter((p) => p.tokens.length > 0),
  );
  const maxKeywordBonus = opts.maxKeywordBonus ?? 4;
  const rate = (memory: ImportanceInput): number => {
    const text = memory.text;
    let score = base[memory.kind];
    if (text.includes('!')) score += 1;
    if (text.includes('?')) score += 1;
    score += Math.min(2, countNamed(text));
    if (SHOUTED.test(text)) score += 1;
    const bonus = keywordBonus(tokenize(text, ALL_WORDS), phrases);
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

/** A shouted word: three or more uppercase letters standing alone. */
const SHOUTED = /(?<![\p{L}\p{N}])\p{Lu}{3,}(?![\p{L}\p{N}])/u;
const SENTENCE_BREAK = /[.!?\n]+/;
const NAMED_WORD = /[\p{L}\p{N}_-]+/gu;
const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;
const NAME_START = /^\p{Lu}\p{Ll}/u;

/** Distinct capitalised words not starting a sentence, plus distinct letter-digit ids. */
function countNamed(text: string): number {
  const named = new Set<string>();
  for (const sentence of text.split(SENTENCE_BREAK)) {
    const words = sentence.match(NAMED_WORD);
    if (words === null) continue;
    for (let i = 0; i < words.length; i++) if (isNamed(words[i], i === 0)) named.add(words[i]);
  }
  return named.size;
}

/**
 * Whether a word (letters, digits, `_`, `-`) is an id (a letter and a digit) or, unless it
 * starts its sentence, a name (an uppercase letter then a lowercase one). ASCII words, the
 * usual case, are read char by char (ASCII letters and digits are exactly the ASCII \p{L}
 * and \p{N}, A-Z and a-z the ASCII \p{Lu} and \p{Ll}); any other word goes to the regexes.
 */
function isNamed(w: string, first: boolean): boolean {
  let letter = false;
  let digit = false;
  for (let c = 0; c < w.length; c++) {
    const code = w.charCodeAt(c);
    if (code >= 0x80)
      return (LETTER.test(w) && NUMBER.test(w)) || (!first && w.length > 1 && NAME_START.test(w));
    if (code >= 48 && code <= 57) digit = true;
    else if ((code | 32) >= 97 && (code | 32) <= 122) letter = true;
  }
  if (letter && digit) return true;
  if (first || w.length < 2) return false;
  const a = w.charCodeAt(0);
  const b = w.charCodeAt(1);
  return a >= 65 && a <= 90 && b >= 97 && b <= 122;
}

interface Phrase {
  tokens: readonly string[];
  bonus: number;
}

/** Phrases in their given order, and by their first token with their index. */
interface PhraseIndex {
  phrases: readonly Phrase[];
  byFirst: Map<string, number[]>;
}

function phraseIndex(phrases: readonly Phrase[]): PhraseIndex {
  const byFirst = new Map<string, number[]>();
  phrases.forEach((phrase, index) => {
    const list = byFirst.get(phrase.tokens[0]);
    if (list) list.push(index);
    else byFirst.set(phrase.tokens[0], [index]);
  });
  return { phrases, byFirst };
}

/**
 * The sum of the bonuses of the phrases found in `tokens`, each counted once and added in
 * the phrases' order (the same double as testing each phrase in turn), found by one lookup
 * per token by first word instead of one scan of the text per phrase.
 */
function keywordBonus(tokens: readonly string[], { phrases, byFirst }: PhraseIndex): number {
  let found: Uint8Array | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const candidates = byFirst.get(tokens[i]);
    if (candidates === undefined) continue;
    outer: for (const index of candidates) {
      const t = phrases[index].tokens;
      if (i + t.length > tokens.length) continue;
      for (let j = 1; j < t.length; j++) if (tokens[i + j] !== t[j]) continue outer;
      found ??= new Uint8Array(phrases.length);
      found[index] = 1;
    }
  }
  let bonus = 0;
  if (found) for (let p = 0; p < phrases.length; p++) if (found[p] === 1) bonus += phrases[p].bonus;
  return bonus;
}
