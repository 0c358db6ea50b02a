import type { SeededStream } from '../../src/core/index.ts';
import type { SurveyAnswer } from '../../src/validity/index.ts';

/** Draws an option from shares with a seeded stream. */
export function draw(shares: Record<string, number>, rng: SeededStream): string {
  let u = rng.next();
  const keys = Object.keys(shares);
  for (const k of keys) {
    u -= shares[k];
    if (u < 0) return k;
  }
  return keys[keys.length - 1];
}

/** n synthetic answers to one item drawn from `shares`. */
export function sampleAnswers(
  n: number,
  shares: Record<string, number>,
  rng: SeededStream,
  over: Partial<SurveyAnswer> = {},
): SurveyAnswer[] {
  return Array.from({ length: n }, (_, i) => ({
    agent: `a${i}`,
    item: 'q1',
    group: {},
    kind: 'likert' as const,
    answer: draw(shares, rng),
    phase: 'initial' as const,
    ...over,
  }));
}
