/**
 * The local server's tokenizer: a token is a run of letters and digits, or one other
 * non-space character (punctuation, a symbol, an emoji code point). `"Hi, Bob!"` is four
 * tokens. It is deterministic and close enough to a BPE count (within a factor of about
 * 1.3 on English prose) for token budgets to behave realistically in tests.
 */
const TOKEN = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;

/** Number of tokens in `text` (see the tokenizer rule above). */
export function countTokens(text: string): number {
  return text.match(TOKEN)?.length ?? 0;
}

/** Fixed per-message overhead (role and framing), as in OpenAI's published counting recipe. */
export const TOKENS_PER_MESSAGE = 4;
/** Fixed overhead of priming the assistant's reply. */
export const TOKENS_REPLY_PRIMING = 3;

/**
 * `text` cut after its first `max` tokens, or `null` when it has at most `max` tokens.
 * The cut keeps the text up to the end of the last kept token.
 */
export function truncateToTokens(text: string, max: number): string | null {
  const re = new RegExp(TOKEN.source, TOKEN.flags);
  let n = 0;
  let end = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (n === max) return text.slice(0, end);
    n++;
    end = m.index + m[0].length;
  }
  return null;
}

/** Longest stream delta, in characters (JSON has few spaces to split at). */
const MAX_PIECE = 16;

/**
 * Splits `text` into stream deltas of about one word each (a word with its leading
 * whitespace, cut every {@link MAX_PIECE} characters), which concatenate back to `text`.
 */
export function streamPieces(text: string): string[] {
  const pieces: string[] = [];
  for (const word of text.match(/\s*\S+|\s+$/g) ?? [])
    for (let i = 0; i < word.length; i += MAX_PIECE) pieces.push(word.slice(i, i + MAX_PIECE));
  return pieces;
}
