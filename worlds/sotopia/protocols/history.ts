import type { TurnRecord } from '../transcript.ts';
import { type Background, backgroundText, type Wording } from './background.ts';
import { fillTemplate } from './fill.ts';

/**
 * The turns of an episode as the zhou2024 prompts show them (Sotopia's `Observation`,
 * `AgentAction.to_natural_language` and the evaluator's history), every word from the
 * pack's pieces.
 */

function fill(w: Wording, text: string, values: Record<string, string>): string {
  return fillTemplate(text, values, w.rendering.escapes);
}

/** What a turn did (`did nothing`, `said: "..."`, `[action] ...`, `left the conversation`). */
export function actionPhrase(w: Wording, t: Pick<TurnRecord, 'action' | 'text'>): string {
  const p = w.pack.pieces;
  switch (t.action) {
    case 'none':
      return p['action-none'];
    case 'speak':
      return fill(w, p['action-speak'], { argument: t.text });
    case 'leave':
      return p['action-leave'];
    default:
      return fill(w, p['action-other'], { action_type: t.action, argument: t.text });
  }
}

/**
 * The turns as a character's (or the playwright's) history, numbered from 0 as Sotopia's
 * observations number them; a turn in which nobody acted has no action.
 */
export function historyLines(w: Wording, transcript: readonly TurnRecord[]): string[] {
  const p = w.pack.pieces;
  return transcript.map((t, k) => {
    const turn = String(k);
    const line =
      t.action === 'none'
        ? fill(w, p['turn-line-idle'], { turn })
        : fill(w, p['turn-line'], {
            turn,
            last_turn: fill(w, p.acted, { name: t.name, action: actionPhrase(w, t) }),
          });
    return w.rendering.trimTurnLines ? line.trimEnd() : line;
  });
}

/** A character's history: its background, the start of the conversation, then the turns. */
export function characterHistory(w: Wording, bg: Background, transcript: readonly TurnRecord[]): string {
  const start = fill(w, w.pack.pieces['history-start'], { background: backgroundText(w, bg) });
  return [start, ...historyLines(w, transcript)].join(w.pack.pieces['history-separator']);
}

/** The playwright's history: the turns so far. */
export function playwrightHistory(w: Wording, transcript: readonly TurnRecord[]): string {
  return historyLines(w, transcript).join(w.pack.pieces['history-separator']);
}

/**
 * The judge's history: the omniscient background, then in the played modes a step marker
 * per turn (from 1; Sotopia's environment messages) and each turn's line; the script's
 * turns come without markers (Sotopia's script evaluation has none). With `textualNone`
 * (Sotopia's rendering) a played step holds both seats' actions, the waiting seat's a
 * `none`, and every entry whose text holds the pack's `judge-skip` phrase is left out, as
 * Sotopia's evaluator does; otherwise only the `none` turns are left out.
 */
export function judgeHistory(
  w: Wording,
  bg: Background,
  transcript: readonly TurnRecord[],
  stepMarkers: boolean,
): string {
  const p = w.pack.pieces;
  const background = backgroundText(w, bg);
  const entries: { text: string; probe: string; none: boolean }[] = [
    { text: background, probe: background, none: false },
  ];
  transcript.forEach((t, k) => {
    if (stepMarkers) {
      const step = fill(w, p['judge-step'], { turn: String(k + 1) });
      entries.push({ text: step, probe: step, none: false });
    }
    // Sotopia's environment records both seats' actions each step, the waiting seat's a `none`
    const seats = w.rendering.textualNone && stepMarkers ? [0, 1] : [t.speaker];
    for (const seat of seats) {
      const turn = seat === t.speaker ? t : { action: 'none' as const, text: '' };
      const action = actionPhrase(w, turn);
      const name = seat === t.speaker ? t.name : bg.names[seat];
      const line = fill(w, p['judge-line'], { name, action });
      entries.push({ text: line, probe: action, none: turn.action === 'none' });
    }
  });
  const skip = p['judge-skip'];
  const kept = entries.filter((e) =>
    w.rendering.textualNone ? skip === '' || !e.probe.includes(skip) : !e.none,
  );
  return kept.map((e) => e.text).join(p['judge-separator']);
}
