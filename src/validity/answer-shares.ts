import type { SurveyAnswer } from './answers.ts';
import type { Shares } from './distances.ts';

/** True when the answer's persona has every attribute of `group` ({} matches everyone). */
export function inGroup(a: SurveyAnswer, group: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(group)) if (a.group[k] !== v) return false;
  return true;
}

/**
 * The option id an answer counts as against a reference with `options`: the answer itself
 * for choice and Likert items; for a numeric answer, the numeric option nearest to it (ties
 * to the lower), so that amounts fall into the reference's bins (e.g. offers in steps of 10).
 */
export function optionOf(a: SurveyAnswer, options: readonly string[]): string {
  if (a.kind !== 'numeric') return String(a.answer);
  const x = Number(a.answer);
  let best = String(a.answer);
  let bestD = Number.POSITIVE_INFINITY;
  for (const o of options) {
    const d = Math.abs(Number(o) - x);
    if (d < bestD) {
      bestD = d;
      best = o;
    }
  }
  return best;
}

/** Shares of the given option codes (indices into `options`). */
export function sharesOfCodes(codes: readonly number[], options: readonly string[]): Record<string, number> {
  const counts = new Array<number>(options.length).fill(0);
  for (const c of codes) counts[c]++;
  const out: Record<string, number> = {};
  for (let i = 0; i < options.length; i++)
    out[options[i]] = codes.length === 0 ? 0 : counts[i] / codes.length;
  return out;
}

/** Shares of answers (each counted as {@link optionOf}). */
export function answerShares(answers: readonly SurveyAnswer[], options: readonly string[]): Shares {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const o = optionOf(a, options);
    out[o] = (out[o] ?? 0) + 1 / answers.length;
  }
  return out;
}
