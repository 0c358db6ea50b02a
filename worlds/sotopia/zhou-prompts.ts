import type { ChatMessage } from '../../src/index.ts';
import { type Background, backgroundText } from './background.ts';
import { DIMENSION_NAMES, DIMENSIONS } from './judge.ts';
import type { RUBRICS } from './params.ts';
import { fillTemplate, type Templates } from './templates.ts';
import { ACTION_TYPES, type TurnRecord } from './transcript.ts';
import { historyLines, judgeLines } from './zhou-rules.ts';

/**
 * zhou2024 prompts: each is one user message (as Sotopia sends its templates), made from a
 * template file (`templates.ts`) and what the reader may see (`background.ts`).
 */

const ACTIONS = ACTION_TYPES.join(', ');

const ACTION_FORMAT = [
  'A JSON object with two fields:',
  `"action": one of ${ACTIONS}: whether to speak in this turn, or to do something else, or nothing;`,
  '"argument": what is said for speak, the expression or gesture for non-verbal communication, the physical action for action (empty for none and leave).',
  'For example: {"action": "speak", "argument": "Hello, how are you?"}',
].join('\n');

function user(content: string): ChatMessage[] {
  return [{ role: 'user', content }];
}

/** A character's history: its background, then the turns so far. */
function characterHistory(bg: Background, transcript: readonly TurnRecord[]): string {
  return [backgroundText(bg), 'Conversation starts:', ...historyLines(transcript)].join('\n');
}

/** A character's turn (agents: its own background; mindreaders: the omniscient one). */
export function zhouCharacterPrompt(
  t: Templates,
  bg: Background,
  seat: number,
  transcript: readonly TurnRecord[],
): ChatMessage[] {
  return user(
    fillTemplate(t.text.character, {
      agent: bg.names[seat],
      history: characterHistory(bg, transcript),
      turn: String(transcript.length),
      actions: ACTIONS,
      format: ACTION_FORMAT,
    }),
  );
}

/** The playwright's next turn for `seat` (the omniscient background and the turns so far). */
export function zhouPlaywrightPrompt(
  t: Templates,
  bg: Background,
  seat: number,
  transcript: readonly TurnRecord[],
): ChatMessage[] {
  return user(
    fillTemplate(t.text.playwright, {
      agent: bg.names[seat],
      background: backgroundText(bg),
      history: historyLines(transcript).join('\n'),
      turn: String(transcript.length),
      actions: ACTIONS,
      format: ACTION_FORMAT,
    }),
  );
}

/** The script writer's one call (the omniscient background). */
export function zhouScriptPrompt(t: Templates, bg: Background, maxTurns: number): ChatMessage[] {
  const [a, b] = bg.names;
  const format = [
    'A JSON object {"turns": [...]}: each turn is one action of one character,',
    `{"speaker": "${a}" or "${b}", "action": one of ${ACTIONS}, "argument": what is said for speak, the expression or gesture for non-verbal communication, the physical action for action (empty for none and leave)}.`,
    `For example: {"turns": [{"speaker": "${a}", "action": "speak", "argument": "Hi!"}, {"speaker": "${b}", "action": "non-verbal communication", "argument": "smiles"}]}`,
  ].join('\n');
  return user(
    fillTemplate(t.text.script, { background: backgroundText(bg), max_turns: String(maxTurns), format }),
  );
}

/** The judge's per-dimension instructions, with the scoring bands for `plus`. */
export function judgeFormat(
  t: Templates,
  names: readonly [string, string],
  rubric: (typeof RUBRICS)[number],
): string {
  const dims = DIMENSION_NAMES.map((d) => {
    const r = t.rubric[d];
    const { min, max } = DIMENSIONS[d];
    return `- "${d}" (integer ${min}..${max}): ${r.steps}${rubric === 'plus' ? ` ${r.bands}` : ''}`;
  });
  return [
    `A JSON object {"agent0": E, "agent1": E}: agent0 evaluates ${names[0]}, agent1 evaluates ${names[1]}.`,
    'E has one field per dimension below, each {"reasoning": string, "score": integer}:',
    ...dims,
  ].join('\n');
}

/**
 * The judge's call: the omniscient background and the turns without "did nothing", with
 * `Turn #n` step markers unless the episode was written as one script.
 */
export function zhouJudgePrompt(
  t: Templates,
  bg: Background,
  transcript: readonly TurnRecord[],
  stepMarkers: boolean,
  rubric: (typeof RUBRICS)[number],
): ChatMessage[] {
  const history = [backgroundText(bg), ...judgeLines(transcript, stepMarkers)].join('\n');
  return user(fillTemplate(t.text.judge, { history, format: judgeFormat(t, bg.names, rubric) }));
}
