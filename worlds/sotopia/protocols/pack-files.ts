/**
 * The files of a template pack and the placeholders each may use. A pack holds every word
 * of the zhou2024 prompts: the prompts themselves (`*.txt`), the reply-format texts, the
 * short pieces code joins together (`pieces.json`: the context, profile lines, turn lines,
 * separators, action phrases, the rubric's `plus` form), the judge's rubric (`rubric.json`) and the descriptions of
 * the reply fields (`reply-fields.json`). Code only fills in data.
 */

/** Placeholders of one template: `required` must appear, `optional` may; any other is an error. */
export interface Slots {
  required: readonly string[];
  optional: readonly string[];
}

const slots = (required: string[], optional: string[] = []): Slots => ({ required, optional });

/** The prompt templates: one file `<name>.txt` each, one user message each. */
export const PROMPTS = {
  character: slots(['agent', 'history', 'format'], ['turn', 'actions']),
  playwright: slots(['agent', 'background', 'history', 'format'], ['turn', 'actions']),
  script: slots(['background', 'format'], ['max_turns']),
  judge: slots(['history', 'format']),
  'repair-json': slots(['ill_formed', 'format']),
  'repair-script': slots(['ill_formed', 'format', 'agents']),
} as const satisfies Record<string, Slots>;

/** A prompt template's name. */
export type PromptName = keyof typeof PROMPTS;

/** The prompt template names, in file order. */
export const PROMPT_NAMES = Object.keys(PROMPTS) as PromptName[];

/**
 * The reply-format texts (`<name>.txt`): `format-json` wraps a reply's JSON Schema (what
 * LangChain's `PydanticOutputParser` told Sotopia's models), `format-script` and
 * `format-turn` describe a free-text script and one playwright turn (Sotopia's
 * `ScriptOutputParser`).
 */
export const FORMATS = {
  'format-json': slots(['schema']),
  'format-script': slots([]),
  'format-turn': slots([]),
} as const satisfies Record<string, Slots>;

/** A reply-format text's name. */
export type FormatName = keyof typeof FORMATS;

/** The reply-format names. */
export const FORMAT_NAMES = Object.keys(FORMATS) as FormatName[];

const NAME = ['first_name', 'last_name'];

/**
 * The pieces of `pieces.json`: the context of an interaction (with and without the two
 * profiles), a profile in four parts (what a partner sees grows part by part with the
 * relationship), the gender words, the partner's unknown goal, the turn lines of a
 * character's history, the action phrases, the judge's lines, the separators.
 */
export const PIECES = {
  context: slots(['scenario', 'name_1', 'name_2', 'bio_1', 'bio_2', 'goal_1', 'goal_2']),
  'context-without-bios': slots(['scenario', 'name_1', 'name_2', 'goal_1', 'goal_2']),
  'bio-name': slots(NAME),
  'bio-public': slots(['age', 'gender', 'occupation', 'pronouns', 'public_info'], NAME),
  'bio-personality': slots(['personality'], NAME),
  'bio-secret': slots(['secret'], NAME),
  'gender-man': slots([]),
  'gender-woman': slots([]),
  'gender-nonbinary': slots([]),
  'goal-unknown': slots([]),
  'history-start': slots(['background']),
  'history-separator': slots([]),
  'turn-line': slots(['turn', 'last_turn']),
  'turn-line-idle': slots(['turn']),
  acted: slots(['name', 'action']),
  'action-none': slots([]),
  'action-speak': slots(['argument']),
  'action-other': slots(['action_type', 'argument']),
  'action-leave': slots([]),
  'action-list-separator': slots([]),
  'judge-step': slots(['turn']),
  'judge-line': slots(['name', 'action']),
  'judge-separator': slots([]),
  'judge-skip': slots([]),
  'agents-list': slots([], ['json', 'python']),
  'rubric-plus': slots(['steps', 'bands']),
} as const satisfies Record<string, Slots>;

/** A piece's name. */
export type PieceName = keyof typeof PIECES;

/** The piece names. */
export const PIECE_NAMES = Object.keys(PIECES) as PieceName[];

/** The JSON files of a pack. */
export const JSON_FILES = ['pieces.json', 'rubric.json', 'reply-fields.json'] as const;

/** Every file of a pack, in a fixed order (the order of its hashes). */
export const PACK_FILES: readonly string[] = [
  ...PROMPT_NAMES.map((n) => `${n}.txt`),
  ...FORMAT_NAMES.map((n) => `${n}.txt`),
  ...JSON_FILES,
];

/**
 * The files a log of world 2.1 and earlier records (its reply contract is `grapevine`): the
 * prompts and the rubric. Under that contract only these come from a given directory; the
 * other words come from the shipped pack, so that a replay of those logs reads what they read.
 */
export const CONTRACT_GRAPEVINE_FILES: readonly string[] = [
  ...PROMPT_NAMES.map((n) => `${n}.txt`),
  'rubric.json',
];

/** The repair prompts: a run records their hashes only when it reads replies the Sotopia way. */
export const REPAIR_FILES: readonly string[] = ['repair-json.txt', 'repair-script.txt'];
