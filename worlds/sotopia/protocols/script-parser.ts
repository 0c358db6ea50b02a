import type { ActionType, TurnReply } from '../transcript.ts';

/**
 * Sotopia's parser of free-text scripts (sotopia/messages/message_classes.py at
 * `agent_vs_storyteller_v1`: `ScriptInteraction.split_by_turn`, `parse_single_dialogue`
 * and `parse`), rule for rule, so that a zhou2024 script or playwright reply is accepted or
 * rejected exactly when Sotopia's would be. Written here from those rules, not translated.
 */

/** One parsed line of a script: the character's name as written, and its action. */
export interface ScriptLine extends TurnReply {
  /** The name as the model wrote it (may be neither character's). */
  name: string;
}

/** A parse: the lines in order, or why the text is not a script. */
export type ScriptParse = { ok: true; lines: ScriptLine[] } | { ok: false; error: string };

// "Turn #3" or "Turn 3", an optional colon, a line break, then capitalised words (the name).
const TURN_AND_NAME = /^Turn #?(\d+):?\s*\n((?:[A-Z]['a-z]* ?)+)/;

/**
 * Splits a reply at each `Turn #n` (`#` optional), keeps only pieces that start with
 * "Turn", cuts the last piece to its first two lines, and rejects any piece of three or
 * more lines (one character acts per turn).
 */
export function splitByTurn(text: string): string[] {
  const pieces = text
    .split(/(?=Turn #?\d+)/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0 && p.startsWith('Turn'));
  if (pieces.length === 0) throw new Error('no "Turn #n" line');
  pieces[pieces.length - 1] = pieces[pieces.length - 1].split('\n').slice(0, 2).join('\n');
  if (pieces.some((p) => p.split('\n').length >= 3)) throw new Error('only one character can act per turn');
  return pieces;
}

/** The action of one turn's text after the name, or null when it has none of the five forms. */
export function actionOf(content: string): TurnReply | null {
  if (content.includes('did nothing')) return { action: 'none', argument: '' };
  const said = /^said: "(.*?)"/.exec(content) ?? /^\[speak\] said: "(.*?)"/.exec(content);
  if (said) return { action: 'speak', argument: said[1].trim() };
  const other = /^\[(non-verbal communication|action)\] (.*)/.exec(content);
  if (other) return { action: other[1] as ActionType, argument: other[2] };
  if (content.includes('left the conversation')) return { action: 'leave', argument: '' };
  return null;
}

/** One `Turn #n\nName action` piece. */
export function parseTurn(piece: string): ScriptLine {
  const m = TURN_AND_NAME.exec(piece);
  if (!m) throw new Error(`not "Turn #n" then a name: ${JSON.stringify(piece.slice(0, 80))}`);
  const content = piece.slice(m[0].length).trim();
  const action = actionOf(content);
  if (!action) throw new Error(`no action in ${JSON.stringify(content.slice(0, 80))}`);
  return { name: m[2].trim(), ...action };
}

/**
 * Parses a script. A name that is neither character's is given to the character whose
 * turn it would be by position (line k → `names[k mod 2]`), as Sotopia does.
 */
export function parseScript(text: string, names: readonly [string, string]): ScriptParse {
  try {
    const lines = splitByTurn(text).map((piece, k) => {
      const line = parseTurn(piece);
      return names.includes(line.name) ? line : { ...line, name: names[k % 2] };
    });
    return { ok: true, lines };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
