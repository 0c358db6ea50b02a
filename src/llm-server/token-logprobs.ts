/** One content token of a reply with its log-probability and alternatives, as the wire sends it. */
export interface WireTokenLogprob {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

/** A token (letters and digits, or one other character) with the whitespace before it. */
const PIECE = /\s*(?:[\p{L}\p{N}]+|[^\s\p{L}\p{N}])|\s+$/gu;

/**
 * The generic responder's token log-probabilities: `text` cut by the local tokenizer's rule
 * (leading whitespace kept with the token, so the tokens concatenate back to `text`), each
 * token certain (log-probability 0, the only alternative). The generic responder is a
 * deterministic function of the request, so probability 1 is what it would put on its
 * token; this is a wire-format stand-in, not a language model's uncertainty.
 */
export function certainTokens(text: string): WireTokenLogprob[] {
  return (text.match(PIECE) ?? []).map((token) => ({ token, logprob: 0, top: [{ token, logprob: 0 }] }));
}

const round = (x: number) => Number(x.toFixed(6));

/**
 * The OpenAI `choices[i].logprobs` object for `tokens`: each token's `bytes` (UTF-8) and at
 * most `topK` alternatives (`top_logprobs`), most likely first.
 */
export function wireLogprobs(tokens: readonly WireTokenLogprob[], topK: number): Record<string, unknown> {
  const bytes = (s: string) => [...Buffer.from(s, 'utf8')];
  return {
    content: tokens.map((t) => ({
      token: t.token,
      logprob: round(t.logprob),
      bytes: bytes(t.token),
      top_logprobs: t.top
        .slice(0, topK)
        .map((a) => ({ token: a.token, logprob: round(a.logprob), bytes: bytes(a.token) })),
    })),
    refusal: null,
  };
}
