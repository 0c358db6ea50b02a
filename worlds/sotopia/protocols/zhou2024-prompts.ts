import type { ChatMessage } from '../../../src/public/llm.ts';
import { ACTION_TYPES, type TurnRecord } from '../transcript.ts';
import { type Background, backgroundText, type Wording } from './background.ts';
import { fillTemplate } from './fill.ts';
import { characterHistory, judgeHistory, playwrightHistory } from './history.ts';
import { pythonListRepr } from './python-text.ts';
import type { RepairSpec } from './reading.ts';

/**
 * The zhou2024 prompts: each one user message (as Sotopia sends its templates), the pack's
 * template filled with what the reader may see (`background.ts`) and the turns so far
 * (`history.ts`). The format text comes from the reply contract.
 */

function user(w: Wording, template: string, values: Record<string, string>): ChatMessage[] {
  return [{ role: 'user', content: fillTemplate(template, values, w.rendering.escapes) }];
}

/** The action types as the prompt lists them. */
export function actionList(w: Wording): string {
  return ACTION_TYPES.join(w.pack.pieces['action-list-separator']);
}

/** A character's turn (agents: its own background; mindreaders: the omniscient one). */
export function characterPrompt(
  w: Wording,
  bg: Background,
  seat: number,
  transcript: readonly TurnRecord[],
  format: string,
): ChatMessage[] {
  return user(w, w.pack.text.character, {
    agent: bg.names[seat],
    history: characterHistory(w, bg, transcript),
    turn: String(transcript.length),
    actions: actionList(w),
    format,
  });
}

/** The playwright's next turn for `seat` (the omniscient background and the turns so far). */
export function playwrightPrompt(
  w: Wording,
  bg: Background,
  seat: number,
  transcript: readonly TurnRecord[],
  format: string,
): ChatMessage[] {
  return user(w, w.pack.text.playwright, {
    agent: bg.names[seat],
    background: backgroundText(w, bg),
    history: playwrightHistory(w, transcript),
    turn: String(transcript.length),
    actions: actionList(w),
    format,
  });
}

/** The script writer's one call (the omniscient background). */
export function scriptPrompt(w: Wording, bg: Background, maxTurns: number, format: string): ChatMessage[] {
  return user(w, w.pack.text.script, {
    background: backgroundText(w, bg),
    max_turns: String(maxTurns),
    format,
  });
}

/** The judge's call: the omniscient background and the turns (see `judgeHistory`). */
export function judgePrompt(
  w: Wording,
  bg: Background,
  transcript: readonly TurnRecord[],
  stepMarkers: boolean,
  format: string,
): ChatMessage[] {
  return user(w, w.pack.text.judge, { history: judgeHistory(w, bg, transcript, stepMarkers), format });
}

/** A repair call: the bad reply, the format it missed, and (scripts) the two characters. */
export function repairPrompt(w: Wording, spec: RepairSpec, badText: string): ChatMessage[] {
  const values: Record<string, string> = { ill_formed: badText, format: spec.format };
  if (spec.agents)
    values.agents = fillTemplate(
      w.pack.pieces['agents-list'],
      { json: JSON.stringify(spec.agents), python: pythonListRepr(spec.agents) },
      w.rendering.escapes,
    );
  return user(w, w.pack.text[spec.template], values);
}
