import { eng } from 'stopword';
import { normalizeText } from './normalize-text.ts';

/**
 * The share of a private text's content words that a prompt must hold for a partial match,
 * by default: 0.6, so a secret of five content words with one dropped or changed (4 of 5)
 * is found, and one of two is not (docs/AUDIT.md says why).
 */
export const DEFAULT_PARTIAL_SHARE = 0.6;

/** A private text prepared for partial matching: its content words, normalised and as written. */
export interface PartialText {
  /** Its content words, normalised as {@link normalizeText} does. */
  content: string[];
  /** The same words as the text spells them (for showing a match). */
  shown: string[];
  /** How many words it has, stop-words included: a match lies within twice as many prompt words. */
  length: number;
}

/** A partial match: the share of the text's content words found, and which. */
export interface PartialMatch {
  share: number;
  /** The matched content words, as the text spells them, in its order. */
  matched: string[];
}

/**
 * Most words of a private text matched partially: the search costs its length squared per
 * prompt word; a longer text is matched whole only.
 */
export const MAX_PARTIAL_WORDS = 200;

let stopWords: ReadonlySet<string> | undefined;

/**
 * English stop-words (the `stopword` package's list), normalised as prompts are, in each case
 * a text may spell them: the confusables skeleton differs by case (`I` becomes `l`, `i` stays).
 */
function stops(): ReadonlySet<string> {
  stopWords ??= new Set(
    eng.flatMap((w) => [w, w.toUpperCase(), w.charAt(0).toUpperCase() + w.slice(1)].map(normalizeText)),
  );
  return stopWords;
}

/**
 * The content words of a private text (its words less English stop-words), undefined when it
 * has fewer than two: one word alone says too little to call a prompt that holds it a match.
 */
export function partialText(text: string): PartialText | undefined {
  const stop = stops();
  const content: string[] = [];
  const shown: string[] = [];
  let length = 0;
  for (const token of text.split(/[\s\p{P}\p{S}]+/u)) {
    for (const word of normalizeText(token).split(' ').filter(Boolean)) {
      length++;
      if (stop.has(word)) continue;
      content.push(word);
      shown.push(token);
    }
  }
  return content.length >= 2 && length <= MAX_PARTIAL_WORDS ? { content, shown, length } : undefined;
}

/**
 * The best partial match of `text` in a prompt's normalised words: the most of its content
 * words that appear in its order within one run of at most twice its length in prompt
 * words (a longest common subsequence per window), when their share is at least `share`.
 * Windows start only at a prompt word that is one of the content words, and a prompt that
 * does not hold enough of them anywhere is passed over before any window is tried.
 */
export function partialMatch(
  text: PartialText,
  prompt: readonly string[],
  promptWords: ReadonlySet<string>,
  share: number,
): PartialMatch | undefined {
  const need = Math.max(2, Math.ceil(share * text.content.length - 1e-9));
  if (text.content.filter((w) => promptWords.has(w)).length < need) return undefined;
  const wanted = new Set(text.content);
  const span = 2 * text.length;
  let best: boolean[] | undefined;
  let bestCount = need - 1;
  for (let i = 0; i < prompt.length; i++) {
    if (!wanted.has(prompt[i])) continue;
    const hit = commonSubsequence(text.content, prompt, i, Math.min(prompt.length, i + span));
    const count = hit.filter(Boolean).length;
    if (count > bestCount) {
      bestCount = count;
      best = hit;
      if (count === text.content.length) break;
    }
  }
  if (!best) return undefined;
  const matched = text.shown.filter((_, k) => best[k]);
  return { share: matched.length / text.content.length, matched };
}

/** Which of `words` a longest common subsequence with `prompt[from, to)` uses. */
function commonSubsequence(
  words: readonly string[],
  prompt: readonly string[],
  from: number,
  to: number,
): boolean[] {
  const m = words.length;
  const n = to - from;
  // lengths[k][j]: the longest common subsequence of words[k..] and prompt[from + j..to)
  const lengths = Array.from({ length: m + 1 }, () => new Uint16Array(n + 1));
  for (let k = m - 1; k >= 0; k--)
    for (let j = n - 1; j >= 0; j--)
      lengths[k][j] =
        words[k] === prompt[from + j]
          ? lengths[k + 1][j + 1] + 1
          : Math.max(lengths[k + 1][j], lengths[k][j + 1]);
  const used = new Array<boolean>(m).fill(false);
  for (let k = 0, j = 0; k < m && j < n; ) {
    if (words[k] === prompt[from + j]) {
      used[k] = true;
      k++;
      j++;
    } else if (lengths[k + 1][j] >= lengths[k][j + 1]) k++;
    else j++;
  }
  return used;
}
