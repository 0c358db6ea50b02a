/** A short English stop-word list (already lowercase), dropped by {@link tokenize}. */
export const DEFAULT_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his ' +
    'i if in into is it its me my no not of on or our she so than that the their them then there ' +
    'these they this to too was we were what when where which who will with would you your ' +
    'd ll m re s t ve'
  ).split(' '),
);

/** How {@link tokenize} normalises words. */
export interface TokenizeOptions {
  /** Words to drop (compared before stemming). Default {@link DEFAULT_STOP_WORDS}. */
  stopWords?: ReadonlySet<string>;
  /** Fold a plural `-s` (`secrets` -> `secret`; not `-ss`, not words of 3 letters or fewer). Default true. */
  stem?: boolean;
}

const POSSESSIVE = /['\u2019]s(?![\p{L}\p{M}\p{N}])/gu;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Splits `text` into lowercase word tokens: NFKC-normalised, possessive `'s` removed, runs
 * of Unicode letters, marks and digits, stop words dropped, plurals folded. A pure
 * function of its input (no locale), so relevance scores are the same on every machine.
 */
export function tokenize(text: string, opts: TokenizeOptions = {}): string[] {
  const stopWords = opts.stopWords ?? DEFAULT_STOP_WORDS;
  const stem = opts.stem ?? true;
  const out: string[] = [];
  const words = text.normalize('NFKC').toLowerCase().replace(POSSESSIVE, '').match(WORD) ?? [];
  for (const word of words) {
    if (stopWords.has(word)) continue;
    out.push(
      stem && word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
  }
  return out;
}
