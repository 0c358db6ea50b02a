import type { ChatMessage } from '../../../src/public/llm.ts';
import { DIMENSION_NAMES, DIMENSIONS } from '../dimensions.ts';
import { ACTION_TYPES, type TurnRecord, turnLine } from '../transcript.ts';
import {
  type CharacterSheet,
  describeProfile,
  relationshipPhrase,
  type SeatView,
  type WriterView,
} from '../views.ts';

/**
 * The grapevine-v0 prompts (world 1.x, whose logs replay with them; fixed, so not in a
 * template pack). Each takes a view (`views.ts`) and nothing else, so what a prompt can
 * hold is decided there. They follow the local server's convention (`Name:`, `Persona:`,
 * `Goal:` in the system message; `Recent messages:` and `Allowed actions:` in the last
 * user message) so that the shipped server answers in character.
 */

const ALLOWED = `Allowed actions: ${ACTION_TYPES.join(', ')}`;

const ACTION_HELP =
  '"none" (do nothing this turn), "speak" (argument: what you say), "non-verbal communication" (argument: a gesture or expression), "action" (argument: a physical action), "leave" (leave the conversation; argument optional)';

function history(transcript: readonly TurnRecord[], selfName?: string): string[] {
  if (transcript.length === 0) return ['Recent messages: none yet.'];
  return ['Recent messages:', ...transcript.map((t) => `- ${turnLine(t, selfName)}`)];
}

/** One character's prompt for one turn (`agents` and `mindreaders` modes). */
export function agentPrompt(
  v: SeatView,
  transcript: readonly TurnRecord[],
  turn: number,
  maxTurns: number,
): ChatMessage[] {
  const { self } = v;
  const system = [
    'You are role-playing a character in a social interaction. Stay in character and decide what your character does next.',
    `Scenario: ${v.scenario}`,
    `Name: ${v.name}`,
    `Persona: ${describeProfile(self)}`,
    `Your secret (you decide whether to reveal it): ${self.secret}`,
    `Goal: ${v.goal}`,
    `You and ${v.partnerName} are ${relationshipPhrase(v.relationship)}. What you know about them: ${describeProfile(v.partner)}`,
    ...(v.partnerGoal !== undefined ? [`${v.partnerName}'s goal: ${v.partnerGoal}`] : []),
    ...(v.partnerSecret !== undefined ? [`${v.partnerName}'s secret: ${v.partnerSecret}`] : []),
    `Answer with one JSON object {"action": ..., "argument": ...}; the action is one of ${ACTION_HELP}.`,
  ].join('\n');
  const user = [
    `Turn ${turn} of at most ${maxTurns}. It is your turn, ${v.name}.`,
    ...history(transcript, v.name),
    ALLOWED,
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

function sheet(c: CharacterSheet): string {
  return [
    `Character ${c.seat + 1}: ${describeProfile(c.agent)}`,
    `${c.name}'s secret: ${c.agent.secret}`,
    `${c.name}'s goal: ${c.goal}`,
  ].join('\n');
}

/** The omniscient writer's background: the scenario and both characters in full. */
function writerSystem(w: WriterView, task: string): string {
  const [a, b] = w.characters;
  return [
    'You are a playwright writing a realistic social interaction between two characters. You know everything about both of them, including their goals and secrets, but each character knows only what they would know.',
    `Scenario: ${w.scenario}`,
    sheet(a),
    sheet(b),
    `${a.name} and ${b.name} are ${relationshipPhrase(w.relationship)}.`,
    task,
    `Each turn is one action of one character: ${ACTION_HELP}.`,
  ].join('\n');
}

/** The `script` mode prompt: one call that writes the whole episode. */
export function scriptPrompt(w: WriterView, maxTurns: number): ChatMessage[] {
  const [a, b] = w.characters;
  const task = `Write the whole conversation: at most ${maxTurns} turns, ${a.name} and ${b.name} taking turns, ${a.name} first. The conversation ends when a character leaves.`;
  const user = [
    `Write the episode now as one JSON object {"turns": [{"speaker": "${a.name}" or "${b.name}", "action": ..., "argument": ...}, ...]}.`,
    ALLOWED,
  ].join('\n');
  return [
    { role: 'system', content: writerSystem(w, task) },
    { role: 'user', content: user },
  ];
}

/** The `playwright` mode prompt: the next turn of character `seat`. */
export function playwrightPrompt(
  w: WriterView,
  transcript: readonly TurnRecord[],
  turn: number,
  seat: number,
  maxTurns: number,
): ChatMessage[] {
  const c = w.characters[seat];
  const task = `Write the conversation one turn at a time (at most ${maxTurns} turns, the characters taking turns).`;
  const user = [
    `Turn ${turn} of at most ${maxTurns}: write what ${c.name} does next.`,
    ...history(transcript),
    `Name: ${c.name}`,
    `Goal: ${c.goal}`,
    `Answer with one JSON object {"action": ..., "argument": ...}.`,
    ALLOWED,
  ].join('\n');
  return [
    { role: 'system', content: writerSystem(w, task) },
    { role: 'user', content: user },
  ];
}

/** The judge's prompt: the environment's view (everything) and the full transcript. */
export function judgePrompt(
  v: WriterView,
  transcript: readonly TurnRecord[],
  endReason: string,
): ChatMessage[] {
  const [a, b] = v.characters;
  const dims = DIMENSION_NAMES.map(
    (d) => `- ${d} (${DIMENSIONS[d].min}..${DIMENSIONS[d].max}): ${DIMENSIONS[d].about}`,
  );
  const system = [
    'You evaluate a social interaction between two characters (Sotopia-EVAL). You see everything: the full scenario, both profiles, secrets and goals, and the whole transcript.',
    'Score each character on each dimension with an integer in its range, after a short reasoning:',
    ...dims,
    'Reply with one JSON object {"agent0": {<dimension>: {"reasoning": ..., "score": ...}, ...}, "agent1": {...}}.',
  ].join('\n');
  const user = [
    `Scenario: ${v.scenario}`,
    ...v.characters.map(
      (c) =>
        `agent${c.seat} is ${c.name}: ${describeProfile(c.agent)} Secret: ${c.agent.secret} Goal: ${c.goal}`,
    ),
    `${a.name} and ${b.name} are ${relationshipPhrase(v.relationship)}.`,
    `Transcript (${transcript.length} turns; the episode ended: ${endReason}):`,
    ...(transcript.length ? transcript.map((t) => turnLine(t)) : ['(no turns)']),
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}
