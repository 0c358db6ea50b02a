import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, readInputFile, sha256Hex } from '../../src/index.ts';
import { DIMENSION_NAMES } from './judge.ts';
import { placeholdersOf } from './template-fill.ts';

export { fillTemplate, placeholdersOf } from './template-fill.ts';

/** The shipped zhou2024 templates. */
export const DEFAULT_TEMPLATES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'templates');

/**
 * The prompt templates, each a file `<name>.txt` of a templates directory: the four
 * prompts, and the two repair prompts of `parsing: sotopia` (Sotopia's `format_bad_output`
 * for JSON replies and `format_bad_output_for_script` for scripts).
 */
export const TEMPLATE_NAMES = [
  'character',
  'playwright',
  'script',
  'judge',
  'repair-json',
  'repair-script',
] as const;

/** The repair templates: only runs with `parsing: sotopia` use them (and record their hashes). */
export const REPAIR_TEMPLATES: readonly TemplateName[] = ['repair-json', 'repair-script'];

/** A template name. */
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/**
 * Placeholders of each template: `required` must appear (else the template cannot carry
 * the protocol's information), `optional` may. Anything else in braces is an error.
 */
export const PLACEHOLDERS: Record<TemplateName, { required: string[]; optional: string[] }> = {
  character: { required: ['agent', 'history', 'format'], optional: ['turn', 'actions'] },
  playwright: { required: ['agent', 'background', 'history', 'format'], optional: ['turn', 'actions'] },
  script: { required: ['background', 'format'], optional: ['max_turns'] },
  judge: { required: ['history', 'format'], optional: [] },
  'repair-json': { required: ['ill_formed', 'format'], optional: [] },
  'repair-script': { required: ['ill_formed', 'format', 'agents'], optional: [] },
};

/** The judge's rubric per dimension: the steps (basic) and the scoring bands (plus). */
export type Rubric = Record<string, { steps: string; bands: string }>;

/** Loaded templates, their rubric and the sha256 of every file read. */
export interface Templates {
  text: Record<TemplateName, string>;
  rubric: Rubric;
  /** `<file>: sha256` of each template file and of `rubric.json`. */
  hashes: Record<string, string>;
}

function read(dir: string, file: string, shipped: string): { text: string; path: string } {
  const own = join(dir, file);
  const path = existsSync(own) ? own : join(shipped, file);
  try {
    return { text: readInputFile(path, { what: 'template', bytesPerByte: 4 }).toString('utf8'), path };
  } catch (cause) {
    throw new ConfigError(`cannot read template ${path}`, {
      cause,
      hint: `a templates directory holds ${file}`,
    });
  }
}

/** Checks a template's placeholders: every required one present, none unknown. */
export function checkTemplate(name: TemplateName, text: string, path: string): void {
  const used = placeholdersOf(text);
  const { required, optional } = PLACEHOLDERS[name];
  const missing = required.filter((p) => !used.includes(p));
  if (missing.length > 0)
    throw new ConfigError(`template ${path} lacks the placeholder {${missing[0]}}`, {
      hint: `the ${name} template needs ${required.map((p) => `{${p}}`).join(', ')}`,
    });
  const unknown = used.filter((p) => !required.includes(p) && !optional.includes(p));
  if (unknown.length > 0)
    throw new ConfigError(`template ${path} has an unknown placeholder {${unknown[0]}}`, {
      hint: `the ${name} template may use ${[...required, ...optional].map((p) => `{${p}}`).join(', ')}`,
    });
}

/**
 * Loads the templates of `dir` ('' = the shipped ones). A file missing from `dir` is taken
 * from the shipped set (its hash says which was used). Every template is checked.
 *
 * @throws ConfigError naming the template and the missing or unknown placeholder.
 */
export function loadTemplates(dir: string): Templates {
  const root = dir || DEFAULT_TEMPLATES_DIR;
  if (dir && !existsSync(dir))
    throw new ConfigError(`templates directory ${dir} does not exist`, {
      hint: `give a directory holding any of ${TEMPLATE_NAMES.map((n) => `${n}.txt`).join(', ')}, rubric.json`,
    });
  const text = {} as Record<TemplateName, string>;
  const hashes: Record<string, string> = {};
  for (const name of TEMPLATE_NAMES) {
    const file = read(root, `${name}.txt`, DEFAULT_TEMPLATES_DIR);
    checkTemplate(name, file.text, file.path);
    text[name] = file.text;
    hashes[`${name}.txt`] = sha256Hex(file.text);
  }
  const rubricFile = read(root, 'rubric.json', DEFAULT_TEMPLATES_DIR);
  let rubric: Rubric;
  try {
    rubric = JSON.parse(rubricFile.text) as Rubric;
  } catch (cause) {
    throw new ConfigError(`${rubricFile.path} is not valid JSON`, { cause });
  }
  const bad = DIMENSION_NAMES.find(
    (d) => typeof rubric[d]?.steps !== 'string' || typeof rubric[d]?.bands !== 'string',
  );
  if (bad)
    throw new ConfigError(`${rubricFile.path} lacks {"steps", "bands"} texts for the dimension ${bad}`, {
      hint: `it needs ${DIMENSION_NAMES.join(', ')}`,
    });
  hashes['rubric.json'] = sha256Hex(rubricFile.text);
  return { text, rubric, hashes };
}
