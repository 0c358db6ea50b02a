import { z } from 'zod';
import type { ChatMessage } from '../../src/public/llm.ts';
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

/**
 * `parsing: sotopia`'s format of a JSON reply: the reply's JSON Schema in the prompt, as
 * LangChain's `PydanticOutputParser.get_format_instructions` gave Sotopia's prompts.
 */
export function schemaFormat(schema: z.ZodType): string {
  const { $schema: _drop, ...shape } = z.toJSONSchema(schema) as Record<string, unknown>;
  return [
    'Reply with one JSON object that conforms to the JSON Schema below (an instance of the schema, not the schema itself).',
    'The schema:',
    '```json',
    JSON.stringify(shape),
    '```',
  ].join('\n');
}

const ACTION_FORMS = [
  'Each turn uses exactly one of these forms for its action (keep the square brackets where shown):',
  '1. "did nothing" when the character does nothing;',
  '2. said: "<what is said>" to say, ask or inquire something;',
  '3. [non-verbal communication] <the expression or gesture>;',
  '4. [action] <the physical action>;',
  '5. "left the conversation" when the character leaves (and the script stops there).',
  'No other form is allowed.',
];

/**
 * `parsing: sotopia`'s format of a whole script (Sotopia's `ScriptOutputParser`, several
 * turns): a `Turn #n` line, then `<name> <action>`, for each turn.
 */
export const SCRIPT_TEXT_FORMAT = [
  'Write one turn after another, each turn describing one character only, as two lines: "Turn #n", then "<character\'s name> <action>".',
  ...ACTION_FORMS,
  'For example:',
  'Turn #1',
  'Oliver Thompson said: "What happened? You look worried."',
  'Turn #2',
  'Esmeralda Solis [action] steps closer',
  'Turn #3',
  'Oliver Thompson [non-verbal communication] smiles',
  'Turn #4',
  'Esmeralda Solis did nothing',
  'Turn #5',
  'Oliver Thompson left the conversation',
].join('\n');

/** `parsing: sotopia`'s format of one playwright turn (the `single_turn` instructions). */
export const TURN_TEXT_FORMAT = [
  'Write only this character\'s next turn, in two lines: "Turn #n", then "<character\'s name> <action>".',
  ...ACTION_FORMS,
  'For example:',
  'Turn #1',
  'Oliver Thompson said: "What happened? You look worried."',
  'Keep the whole script short: fewer than 20 turns.',
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
  format: string = ACTION_FORMAT,
): ChatMessage[] {
  return user(
    fillTemplate(t.text.character, {
      agent: bg.names[seat],
      history: characterHistory(bg, transcript),
      turn: String(transcript.length),
      actions: ACTIONS,
      format,
    }),
  );
}

/** The playwright's next turn for `seat` (the omniscient background and the turns so far). */
export function zhouPlaywrightPrompt(
  t: Templates,
  bg: Background,
  seat: number,
  transcript: readonly TurnRecord[],
  format: string = ACTION_FORMAT,
): ChatMessage[] {
  return user(
    fillTemplate(t.text.playwright, {
      agent: bg.names[seat],
      background: backgroundText(bg),
      history: historyLines(transcript).join('\n'),
      turn: String(transcript.length),
      actions: ACTIONS,
      format,
    }),
  );
}

/** The `reask` script format: a JSON object of turns. */
export function scriptJsonFormat(names: readonly [string, string]): string {
  const [a, b] = names;
  return [
    'A JSON object {"turns": [...]}: each turn is one action of one character,',
    `{"speaker": "${a}" or "${b}", "action": one of ${ACTIONS}, "argument": what is said for speak, the expression or gesture for non-verbal communication, the physical action for action (empty for none and leave)}.`,
    `For example: {"turns": [{"speaker": "${a}", "action": "speak", "argument": "Hi!"}, {"speaker": "${b}", "action": "non-verbal communication", "argument": "smiles"}]}`,
  ].join('\n');
}

/** The script writer's one call (the omniscient background). */
export function zhouScriptPrompt(
  t: Templates,
  bg: Background,
  maxTurns: number,
  format: string = scriptJsonFormat(bg.names),
): ChatMessage[] {
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
  format: string = judgeFormat(t, bg.names, rubric),
): ChatMessage[] {
  const history = [backgroundText(bg), ...judgeLines(transcript, stepMarkers)].join('\n');
  return user(fillTemplate(t.text.judge, { history, format }));
}
