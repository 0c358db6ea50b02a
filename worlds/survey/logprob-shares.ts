import type { TokenLogprob } from '../../src/public/llm.ts';

/** Alternatives asked for at each token: OpenAI's maximum `top_logprobs`. */
export const TOP_LOGPROBS = 20;

/** Where the answer's value starts in the reply text `{"answer": "<id>"}`, or -1. */
function valueStart(text: string, answer: string): number {
  const key = text.indexOf('"answer"');
  if (key < 0) return -1;
  const at = text.indexOf(JSON.stringify(answer), key + 8);
  return at < 0 ? -1 : at + 1;
}

/** The option an alternative token stands for: its id, or the one id it is the only prefix of. */
function optionOf(rest: string, options: readonly string[]): string | undefined {
  const piece = rest.split('"')[0];
  if (options.includes(piece)) return piece;
  if (piece === '') return undefined;
  const starts = options.filter((id) => id.startsWith(piece));
  return starts.length === 1 ? starts[0] : undefined;
}

/**
 * The answer distribution a reply's token log-probabilities give (the `logprobs`
 * elicitation): at the token where the answer's option id begins, each `top_logprobs`
 * alternative is mapped to the option whose id it spells (or the one id it is the only
 * prefix of; the part of the token before the value, e.g. a quote, must match), exp(logprob)
 * is summed per option and the sums are normalised over the options found. Alternatives
 * that name no option, or more than one, are left out, as are options outside the top k.
 * Undefined when the text has no such answer, the tokens do not spell the text up to it,
 * or no alternative names an option.
 */
export function logprobShares(
  options: readonly string[],
  text: string,
  answer: string,
  tokens: readonly TokenLogprob[],
): Record<string, number> | undefined {
  const start = valueStart(text, answer);
  if (start < 0) return undefined;
  let offset = 0;
  for (const t of tokens) {
    const end = offset + t.token.length;
    if (text.slice(offset, end) !== t.token) return undefined;
    if (start < end) return sharesAt(options, text.slice(offset, start), t.top);
    offset = end;
  }
  return undefined;
}

function sharesAt(
  options: readonly string[],
  lead: string,
  top: TokenLogprob['top'],
): Record<string, number> | undefined {
  const mass = new Map<string, number>();
  for (const alt of top) {
    if (!alt.token.startsWith(lead) || !Number.isFinite(alt.logprob)) continue;
    const id = optionOf(alt.token.slice(lead.length), options);
    if (id !== undefined) mass.set(id, (mass.get(id) ?? 0) + Math.exp(alt.logprob));
  }
  const total = [...mass.values()].reduce((s, x) => s + x, 0);
  if (!(total > 0)) return undefined;
  return Object.fromEntries(options.map((id) => [id, (mass.get(id) ?? 0) / total]));
}
