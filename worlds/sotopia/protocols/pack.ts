import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, canonicalJson, sha256Hex } from '../../../src/index.ts';
import { DIMENSION_NAMES } from '../dimensions.ts';
import type { Contract } from '../params.ts';
import { placeholdersOf } from './fill.ts';
import {
  CONTRACT_GRAPEVINE_FILES,
  FORMAT_NAMES,
  FORMATS,
  type FormatName,
  PACK_FILES,
  PIECE_NAMES,
  PIECES,
  type PieceName,
  PROMPT_NAMES,
  PROMPTS,
  type PromptName,
  REPAIR_FILES,
  type Slots,
} from './pack-files.ts';
import type { ScriptFields, TurnFields } from './pydantic-schema.ts';

/** The shipped pack: the project's own words. */
export const DEFAULT_TEMPLATES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'templates');

/** The judge's rubric per dimension: its steps (`basic`), and its bands or its whole `plus` text. */
export type Rubric = Record<string, { steps: string; bands?: string; plus?: string }>;

/** `reply-fields.json`: what the reply's fields mean, and how the reply's JSON Schema is shown. */
export interface ReplyFields {
  turn: TurnFields;
  /** The judge's per-character model name (basic and plus rubrics). */
  evaluation: { name: string; name_plus: string };
  script: ScriptFields;
  /** Whether a score's range appears in the schema (Sotopia's schema has none). */
  score_range: boolean;
}

/** A loaded pack: every text, the sha256 of every file read, and the pack's own hash. */
export interface Pack {
  text: Record<PromptName | FormatName, string>;
  pieces: Record<PieceName, string>;
  rubric: Rubric;
  fields: ReplyFields;
  /** The `grapevine` contract's reply-format words (`contract-grapevine.json`, fixed: its logs replay with them). */
  legacy: Record<string, string>;
  /** `<file>: sha256` of the files a log records (see {@link recordedFiles}). */
  hashes: Record<string, string>;
  /** sha256 of the canonical JSON of `hashes`: the pack in one hash. */
  sha256: string;
  /** Whether `{{`/`}}` are escapes (the `sotopia` contract). */
  escapes: boolean;
}

/** How a pack is loaded: the directory ('' = shipped), the contract, whether repair prompts are used. */
export interface PackOptions {
  dir: string;
  contract: Contract;
  /** True under `parsing: sotopia` (only then do the repair prompts count). */
  repairs: boolean;
}

/** The files whose hashes a log records: every file read, or the seven of world 2.1 (`grapevine`). */
export function recordedFiles(o: Pick<PackOptions, 'contract' | 'repairs'>): string[] {
  const files = o.contract === 'grapevine' ? CONTRACT_GRAPEVINE_FILES : PACK_FILES;
  return files.filter((f) => o.repairs || !REPAIR_FILES.includes(f));
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(`cannot read template ${path}`, { cause, hint: 'check the templates directory' });
  }
}

function parseJson(path: string, text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch (cause) {
    throw new ConfigError(`${path} is not valid JSON`, { cause, hint: 'fix the file or remove it' });
  }
  throw new ConfigError(`${path} is not a JSON object`, { hint: 'a pack file holds one JSON object' });
}

/** Checks a template's placeholders: every required one present, none unknown. */
export function checkTemplate(label: string, text: string, slots: Slots, escapes: boolean): void {
  const used = placeholdersOf(text, escapes);
  const missing = slots.required.filter((p) => !used.includes(p));
  if (missing.length > 0)
    throw new ConfigError(`template ${label} lacks the placeholder {${missing[0]}}`, {
      hint: `it needs ${slots.required.map((p) => `{${p}}`).join(', ')}`,
    });
  const unknown = used.filter((p) => !slots.required.includes(p) && !slots.optional.includes(p));
  if (unknown.length > 0)
    throw new ConfigError(`template ${label} has an unknown placeholder {${unknown[0]}}`, {
      hint: `it may use ${[...slots.required, ...slots.optional].map((p) => `{${p}}`).join(', ') || 'none'}${escapes ? ' (write {{ and }} for literal braces)' : ''}`,
    });
}

function stringsOf(
  path: string,
  obj: Record<string, unknown>,
  keys: readonly string[],
): Record<string, string> {
  const bad = keys.find((k) => typeof obj[k] !== 'string');
  if (bad !== undefined)
    throw new ConfigError(`${path} lacks the text "${bad}"`, { hint: `it needs ${keys.join(', ')}` });
  return Object.fromEntries(keys.map((k) => [k, obj[k] as string]));
}

function checkPieces(
  path: string,
  raw: Record<string, unknown>,
  escapes: boolean,
): Record<PieceName, string> {
  const pieces = stringsOf(path, raw, PIECE_NAMES) as Record<PieceName, string>;
  for (const name of PIECE_NAMES) checkTemplate(`${path} "${name}"`, pieces[name], PIECES[name], escapes);
  if (!/\{(json|python)\}/.test(pieces['agents-list']))
    throw new ConfigError(`${path} "agents-list" uses neither {json} nor {python}`, {
      hint: 'the repair prompt names the two characters through it',
    });
  return pieces;
}

function checkRubric(path: string, raw: Record<string, unknown>): Rubric {
  const bad = DIMENSION_NAMES.find((d) => {
    const r = raw[d] as Record<string, unknown> | undefined;
    return typeof r?.steps !== 'string' || (typeof r.bands !== 'string' && typeof r.plus !== 'string');
  });
  if (bad)
    throw new ConfigError(`${path} lacks {"steps", "bands"} (or "plus") texts for the dimension ${bad}`, {
      hint: `it needs ${DIMENSION_NAMES.join(', ')}`,
    });
  return raw as Rubric;
}

function checkFields(path: string, raw: Record<string, unknown>): ReplyFields {
  const part = (key: string, keys: string[]) => {
    const v = raw[key];
    if (!v || typeof v !== 'object')
      throw new ConfigError(`${path} lacks "${key}"`, { hint: 'see the shipped reply-fields.json' });
    const obj = v as Record<string, unknown>;
    const description = obj.description;
    if (description !== undefined && description !== null && typeof description !== 'string')
      throw new ConfigError(`${path} "${key}.description" is neither a text nor null`);
    return {
      ...stringsOf(`${path} "${key}"`, obj, keys),
      description: (description ?? null) as string | null,
    };
  };
  if (typeof raw.score_range !== 'boolean')
    throw new ConfigError(`${path} "score_range" is not true or false`);
  const { description: _d, ...evaluation } = part('evaluation', ['name', 'name_plus']);
  return {
    turn: part('turn', ['action_type', 'argument']) as unknown as TurnFields,
    evaluation: evaluation as ReplyFields['evaluation'],
    script: part('script', ['turns', 'speaker']) as unknown as ScriptFields,
    score_range: raw.score_range,
  };
}

/** The directory a file is read from: the given one when it has the file (and may supply it), else the shipped one. */
function sourceOf(o: PackOptions, file: string): string {
  const own = o.dir && (o.contract === 'sotopia' || CONTRACT_GRAPEVINE_FILES.includes(file));
  return own && existsSync(join(o.dir, file)) ? join(o.dir, file) : join(DEFAULT_TEMPLATES_DIR, file);
}

function checkDir(o: PackOptions): void {
  if (!o.dir) return;
  if (!existsSync(o.dir))
    throw new ConfigError(`templates directory ${o.dir} does not exist`, {
      hint: `give a directory holding any of ${PACK_FILES.join(', ')}`,
    });
  if (o.contract !== 'sotopia') return;
  const stray = readdirSync(o.dir).find((f) => /\.(txt|json)$/.test(f) && !PACK_FILES.includes(f));
  if (stray)
    throw new ConfigError(`templates directory ${o.dir} holds ${stray}, which is no pack file`, {
      hint: `a pack holds ${PACK_FILES.join(', ')}`,
    });
}

/**
 * Loads a pack: each file from `dir` when it has it, else from the shipped pack (the
 * hashes say which was read). Every template is checked for its placeholders.
 *
 * @throws ConfigError naming the file and what is wrong with it.
 */
export function loadPack(o: PackOptions): Pack {
  checkDir(o);
  const escapes = o.contract === 'sotopia';
  const all: Record<string, string> = {};
  const read = (file: string) => {
    const path = sourceOf(o, file);
    all[file] = readText(path);
    return path;
  };
  const text = {} as Pack['text'];
  const slots: [PromptName | FormatName, Slots][] = [
    ...PROMPT_NAMES.map((n): [PromptName, Slots] => [n, PROMPTS[n]]),
    ...FORMAT_NAMES.map((n): [FormatName, Slots] => [n, FORMATS[n]]),
  ];
  for (const [name, slot] of slots) {
    checkTemplate(read(`${name}.txt`), all[`${name}.txt`], slot, escapes);
    text[name] = all[`${name}.txt`];
  }
  const json = (file: string) => {
    const path = read(file);
    return { path, raw: parseJson(path, all[file]) };
  };
  const pieces = json('pieces.json');
  const rubric = json('rubric.json');
  const fields = json('reply-fields.json');
  const hashes = Object.fromEntries(recordedFiles(o).map((f) => [f, sha256Hex(all[f])]));
  return {
    text,
    pieces: checkPieces(pieces.path, pieces.raw, escapes),
    rubric: checkRubric(rubric.path, rubric.raw),
    fields: checkFields(fields.path, fields.raw),
    legacy: escapes ? {} : legacyFormats(),
    hashes,
    sha256: sha256Hex(canonicalJson(hashes)),
    escapes,
  };
}

/** The `grapevine` contract's format words, beside this file. */
function legacyFormats(): Record<string, string> {
  const path = join(dirname(fileURLToPath(import.meta.url)), 'contract-grapevine.json');
  return parseJson(path, readText(path)) as Record<string, string>;
}
