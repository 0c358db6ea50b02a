import type { EndReason, TurnRecord } from './transcript.ts';

/**
 * zhou2024's episode rules and transcript lines (sotopia/envs/evaluators.py
 * `RuleBasedTerminatedEvaluator`, sotopia/envs/parallel.py `astep`,
 * sotopia/messages/message_classes.py `AgentAction.to_natural_language`).
 */

/** What a turn did, in Sotopia's phrasing ("did nothing" for `none`). */
export function actionPhrase(t: Pick<TurnRecord, 'action' | 'text'>): string {
  switch (t.action) {
    case 'none':
      return 'did nothing';
    case 'speak':
      return `said: "${t.text}"`;
    case 'leave':
      return 'left the conversation';
    default:
      return `[${t.action}] ${t.text}`;
  }
}

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

/**
 * The turns as a character's (or the playwright's) history: `Turn #k: Name said: "..."`
 * with k counted from 0, as Sotopia's observations number them; a turn in which nobody
 * acted has nothing after the colon.
 */
export function historyLines(transcript: readonly TurnRecord[]): string[] {
  return transcript.map((t, k) =>
    `Turn #${k}: ${t.action === 'none' ? '' : `${t.name} ${actionPhrase(t)}`}`.trimEnd(),
  );
}

/**
 * The turns as the judge reads them: "did nothing" turns left out; in the played modes each
 * step is announced `Turn #n` (from 1; Sotopia's environment messages), the script's
 * turns come without (Sotopia's script evaluation has no environment messages).
 */
export function judgeLines(transcript: readonly TurnRecord[], stepMarkers: boolean): string[] {
  const out: string[] = [];
  transcript.forEach((t, k) => {
    if (stepMarkers) out.push(`Turn #${k + 1}`);
    if (t.action !== 'none') out.push(`${t.name} ${actionPhrase(t)}`);
  });
  return out;
}
