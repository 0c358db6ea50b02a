import type { EndReason, TurnRecord } from '../transcript.ts';

/**
 * zhou2024's end rules (sotopia/envs/evaluators.py `RuleBasedTerminatedEvaluator`,
 * sotopia/envs/parallel.py `astep`).
 */

/**
 * The trailing run of `none` actions as Sotopia counts it: each round-robin step records
 * both seats' actions, seat 0's first, the waiting seat's being a `none`; so a step whose
 * speaker did nothing adds two, and the last step in which someone acted adds one when
 * its speaker was seat 0 (seat 1's masked `none` comes after it).
 */
export function trailingNone(transcript: readonly TurnRecord[]): number {
  let n = 0;
  for (let i = transcript.length - 1; i >= 0; i--) {
    const t = transcript[i];
    if (t.action !== 'none') return n + (t.speaker === 0 ? 1 : 0);
    n += 2;
  }
  return n;
}

/**
 * Whether the episode ends after the last turn: a leave; a trailing run of `none` (the
 * waiting seat's included) longer than `maxIdle`; the turn number exceeding `maxTurns`
 * (so at most `maxTurns + 1` turns); otherwise null.
 */
export function zhouEndReason(
  transcript: readonly TurnRecord[],
  maxTurns: number,
  maxIdle: number,
): EndReason | null {
  if (transcript[transcript.length - 1]?.action === 'leave') return 'leave';
  if (trailingNone(transcript) > maxIdle) return 'idle';
  if (transcript.length > maxTurns) return 'max-turns';
  return null;
}
