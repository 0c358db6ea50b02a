import { z } from 'zod';

/** Sotopia's action types. */
export const ACTION_TYPES = ['none', 'speak', 'non-verbal communication', 'action', 'leave'] as const;

/** An action type. */
export type ActionType = (typeof ACTION_TYPES)[number];

/** One turn of an episode, as logged (message payloads, memory, the run summary). */
export type TurnRecord = {
  /** 1-based turn number. */
  turn: number;
  /** Seat of the character (0 or 1). */
  speaker: number;
  /** The character's "First Last". */
  name: string;
  action: ActionType;
  /** What was said or done; empty for `none`. */
  text: string;
  /** True when no valid reply came and the turn is the recorded fallback (`none`). */
  fallback: boolean;
};

/**
 * Why an episode ended: a character left, the turn limit, more than `maxIdle` idle turns
 * in a row, or, in `script` mode, the script ended (`script-end`) or no valid script came
 * (`no-script`).
 */
export type EndReason = 'leave' | 'max-turns' | 'idle' | 'script-end' | 'no-script';

/** The reply schema of one turn: `{action, argument}`, as in Sotopia's `AgentAction`. */
export const turnReplySchema = z.object({
  action: z.enum(ACTION_TYPES),
  argument: z.string(),
});

/** A turn reply. */
export type TurnReply = z.infer<typeof turnReplySchema>;

/** The fallback of a turn: doing nothing. */
export const NO_ACTION: TurnReply = { action: 'none', argument: '' };

/** A turn record from a reply (`none` keeps no text). */
export function turnRecord(
  turn: number,
  speaker: number,
  name: string,
  reply: TurnReply,
  fallback: boolean,
): TurnRecord {
  const text = reply.action === 'none' ? '' : reply.argument.trim();
  return { turn, speaker, name, action: reply.action, text, fallback };
}

/**
 * Whether the episode ends after the last turn of `transcript`: `leave` if it is a leave,
 * `idle` after more than `maxIdle` consecutive `none` turns, `max-turns` at `maxTurns`;
 * otherwise null.
 */
export function endReason(
  transcript: readonly TurnRecord[],
  maxTurns: number,
  maxIdle: number,
): EndReason | null {
  const last = transcript[transcript.length - 1];
  if (last?.action === 'leave') return 'leave';
  let idle = 0;
  for (let i = transcript.length - 1; i >= 0 && transcript[i].action === 'none'; i--) idle++;
  if (idle > maxIdle) return 'idle';
  if (transcript.length >= maxTurns) return 'max-turns';
  return null;
}

/**
 * Cuts a written script where a played episode would have ended (see {@link endReason});
 * `script-end` when the script ends first.
 */
export function cutScript(
  script: readonly TurnRecord[],
  maxTurns: number,
  maxIdle: number,
): { transcript: TurnRecord[]; reason: EndReason } {
  const out: TurnRecord[] = [];
  for (const t of script) {
    out.push({ ...t, turn: out.length + 1 });
    const reason = endReason(out, maxTurns, maxIdle);
    if (reason) return { transcript: out, reason };
  }
  return { transcript: out, reason: 'script-end' };
}

/** A turn as one line of history: `[turn 3] Name: text` (Sotopia's wording for non-speech). */
export function turnLine(t: TurnRecord, selfName?: string): string {
  const who = t.name === selfName ? `${t.name} (you)` : t.name;
  const what =
    t.action === 'speak'
      ? t.text
      : t.action === 'none'
        ? '(did nothing)'
        : t.action === 'leave'
          ? `(left the conversation)${t.text ? ` ${t.text}` : ''}`
          : `[${t.action}] ${t.text}`;
  return `[turn ${t.turn}] ${who}: ${what}`;
}

/** Words of a text (white-space separated). */
export function wordCount(text: string): number {
  const t = text.trim();
  return t === '' ? 0 : t.split(/\s+/).length;
}

/** Words said or done per seat, over the whole transcript. */
export function wordsBySeat(transcript: readonly TurnRecord[]): [number, number] {
  const out: [number, number] = [0, 0];
  for (const t of transcript) out[t.speaker === 1 ? 1 : 0] += wordCount(t.text);
  return out;
}
