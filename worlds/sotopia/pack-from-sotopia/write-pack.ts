import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, sha256Hex, UsageError } from '../../../src/index.ts';
import { DEFAULT_TEMPLATES_DIR, loadPack, type Pack } from '../protocols/pack.ts';
import { type ExtractedPack, extractPack } from './extract-pack.ts';
import { PythonSyntaxError } from './python-lexer.ts';
import { pythonSource, SourceShapeError } from './python-source.ts';
import { LANGCHAIN_FILE, SOTOPIA_FILES, type SotopiaSources } from './sotopia-strings.ts';

/**
 * sha256 of each file the extractor reads, as it is at Sotopia's tag `agent_vs_storyteller_v1`
 * (commit bfc2554): a checkout at another commit still gives a pack, with a warning.
 */
export const TAG_HASHES: Record<string, string> = {
  [SOTOPIA_FILES.generate]: '657dea7b5ba8ab24c5518b1ae69e0215750fb620576996f5e6320263915a26ce',
  [SOTOPIA_FILES.messages]: 'e9aa6de2f813b0931271c896b68661e4c34e50c8fc3b8de82ab1bdc5b9510761',
  [SOTOPIA_FILES.evaluators]: 'c23acc717dbe3c635b7a1eed29df7c0a6f09011514dd24db37b1cca760cee1b1',
  [SOTOPIA_FILES.parallel]: 'e031bcc08e375e60f18ba81e0552e8e4e727cd956c3585ecd7b1030ffc2db4ac',
  [SOTOPIA_FILES.agent]: '3a3c9ad8dcd2195968fd304b6c06e14e7a647fb6981421d9650d650c5f575262',
};

/** What was read: each file's path and sha256. */
export interface ReadSources {
  sources: SotopiaSources;
  hashes: Record<string, string>;
}

function readSource(path: string, label: string) {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(`cannot read ${path}`, {
      cause,
      hint: `--from names a Sotopia checkout holding ${label}`,
    });
  }
  try {
    return { source: pythonSource(label, text), sha256: sha256Hex(text) };
  } catch (err) {
    if (err instanceof PythonSyntaxError)
      throw new ConfigError(`${path} is not Python source the extractor can read: ${err.message}`);
    throw err;
  }
}

/** LangChain's `format_instructions.py` from a file, a `langchain` package folder, or a folder holding one. */
function langchainFile(path: string): string {
  if (existsSync(path) && statSync(path).isFile()) return path;
  for (const candidate of [join(path, LANGCHAIN_FILE), join(path, 'output_parsers/format_instructions.py')])
    if (existsSync(candidate)) return candidate;
  throw new ConfigError(`${path} holds no ${LANGCHAIN_FILE}`, {
    hint: 'give the installed langchain package (e.g. .venv/lib/python3.11/site-packages) or its format_instructions.py',
  });
}

/** Reads the files of a Sotopia checkout (and of LangChain, when given). */
export function readSotopia(from: string, langchain?: string): ReadSources {
  if (!existsSync(join(from, SOTOPIA_FILES.generate)))
    throw new UsageError(`${from} is not a Sotopia checkout: it has no ${SOTOPIA_FILES.generate}`, {
      hint: 'give the folder of a clone of sotopia-lab/sotopia at tag agent_vs_storyteller_v1',
    });
  const hashes: Record<string, string> = {};
  const read = (rel: string) => {
    const r = readSource(join(from, rel), rel);
    hashes[rel] = r.sha256;
    return r.source;
  };
  const sources: SotopiaSources = {
    generate: read(SOTOPIA_FILES.generate),
    messages: read(SOTOPIA_FILES.messages),
    evaluators: read(SOTOPIA_FILES.evaluators),
    parallel: read(SOTOPIA_FILES.parallel),
    agent: read(SOTOPIA_FILES.agent),
  };
  if (langchain !== undefined) {
    const r = readSource(langchainFile(langchain), LANGCHAIN_FILE);
    hashes[LANGCHAIN_FILE] = r.sha256;
    sources.langchain = r.source;
  }
  return { sources, hashes };
}

function shipped(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(DEFAULT_TEMPLATES_DIR, file), 'utf8')) as Record<string, unknown>;
}

/** The pack's files: Sotopia's words, and where Sotopia has none (JSON scripts of `reask`), the shipped pack's. */
export function packFiles(x: ExtractedPack): Record<string, string> {
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  const files: Record<string, string> = {};
  for (const [name, text] of Object.entries(x.text)) files[`${name}.txt`] = text;
  files['pieces.json'] = json({ ...shipped('pieces.json'), ...x.pieces, 'agents-list': '{python}' });
  files['rubric.json'] = json(x.rubric);
  files['reply-fields.json'] = json({ ...shipped('reply-fields.json'), ...x.fields, score_range: false });
  return files;
}

/** Where each part of the pack came from, for the pack's `SOURCE.md`. */
function sourceNote(read: ReadSources, warnings: readonly string[]): string {
  return [
    '# Template pack from a Sotopia checkout',
    '',
    'Written by `grapevine sotopia templates`: the words of the files below, which this pack',
    "holds as they are (no grapevine text), except the reply-fields.json `script` entry (grapevine's",
    'JSON script, which Sotopia does not have) and, without LangChain, format-json.txt.',
    '',
    ...Object.entries(read.hashes).map(([f, h]) => `- ${f}: sha256 ${h}`),
    ...(warnings.length > 0 ? ['', ...warnings.map((w) => `Note: ${w}`)] : []),
    '',
  ].join('\n');
}

/** Warnings about a checkout: files that are not the tag's, a missing LangChain. */
export function checkoutWarnings(read: ReadSources): string[] {
  const out = Object.entries(TAG_HASHES)
    .filter(([f, h]) => read.hashes[f] !== h)
    .map(([f]) => `${f} is not the file of tag agent_vs_storyteller_v1; the pack holds this file's words`);
  if (!read.sources.langchain)
    out.push(
      "format-json.txt is the shipped pack's (give --langchain PATH, LangChain 0.0.x as Sotopia pinned, for its PydanticOutputParser words)",
    );
  return out;
}

/**
 * Writes a pack from a Sotopia checkout into `out` (a new or empty folder) and loads it back
 * (every placeholder checked). Returns the pack, the files written and the warnings.
 */
export function writeSotopiaPack(
  from: string,
  out: string,
  langchain?: string,
): { pack: Pack; files: string[]; warnings: string[] } {
  if (existsSync(out) && readdirSync(out).length > 0)
    throw new UsageError(`--out ${out} is not empty`, { hint: 'give a new or empty folder for the pack' });
  const read = readSotopia(from, langchain);
  let extracted: ExtractedPack;
  try {
    extracted = extractPack(read.sources);
  } catch (err) {
    if (err instanceof SourceShapeError)
      throw new ConfigError(`cannot read Sotopia's prompts from ${from}: ${err.message}`, {
        hint: 'the extractor reads the files of tag agent_vs_storyteller_v1; check out that tag',
      });
    throw err;
  }
  const warnings = checkoutWarnings(read);
  const files = { ...packFiles(extracted), 'SOURCE.md': sourceNote(read, warnings) };
  mkdirSync(out, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(out, name), text);
  const pack = loadPack({ dir: out, contract: 'sotopia', repairs: true });
  return { pack, files: Object.keys(files), warnings };
}
