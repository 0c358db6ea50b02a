import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { ConfigError, readInputFile, sha256Hex } from '../../src/index.ts';
import {
  SOTOPIA_FILES,
  type SotopiaAgent,
  type SotopiaCombo,
  type SotopiaEnvironment,
  type SotopiaRelationship,
} from './records.ts';

/** The copy of the Sotopia profiles that ships with grapevine. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('./data', import.meta.url));

/** A row that was not imported: where it is and why. */
export interface ImportIssue {
  /** Path of the file (the data directory joined with the file name). */
  file: string;
  /** 1-based line number. */
  line: number;
  error: string;
}

/** Rows imported per file. */
export interface SotopiaCounts {
  agents: number;
  environments: number;
  relationships: number;
  combos: number;
}

/** Everything read from a Sotopia data directory. Rows keep the files' order. */
export interface SotopiaData {
  /** The directory read. */
  dir: string;
  agents: SotopiaAgent[];
  environments: SotopiaEnvironment[];
  relationships: SotopiaRelationship[];
  combos: SotopiaCombo[];
  /** Rows skipped, with file and line; empty when every row imported. */
  issues: ImportIssue[];
  counts: SotopiaCounts;
  /** sha256 of each file's bytes, by file name (recorded in run logs). */
  files: Record<string, string>;
}

type Kind = keyof typeof SOTOPIA_FILES;

interface Row<T> {
  line: number;
  value: T;
}

function readText(dir: string, file: string): string {
  const path = join(dir, file);
  try {
    return readInputFile(path, { what: 'Sotopia file', bytesPerByte: 16 }).toString('utf8');
  } catch (cause) {
    throw new ConfigError(`cannot read Sotopia file ${path}`, {
      cause,
      hint: `the data directory must hold ${Object.values(SOTOPIA_FILES)
        .map((f) => f.file)
        .join(', ')} (default: the shipped copy; another with --data DIR)`,
    });
  }
}

function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(row)'}: ${i.message}`)
    .join('; ');
}

/** Parses every non-blank line of one file; bad lines become issues. */
function readRows<K extends Kind>(
  dir: string,
  kind: K,
  issues: ImportIssue[],
  files: Record<string, string>,
): Row<z.output<(typeof SOTOPIA_FILES)[K]['schema']>>[] {
  const { file, schema } = SOTOPIA_FILES[kind];
  const text = readText(dir, file);
  files[file] = sha256Hex(text);
  const out: Row<z.output<(typeof SOTOPIA_FILES)[K]['schema']>>[] = [];
  text.split('\n').forEach((raw, k) => {
    if (raw.trim() === '') return;
    const line = k + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (e) {
      issues.push({ file: join(dir, file), line, error: `not JSON: ${(e as Error).message}` });
      return;
    }
    const result = schema.safeParse(json);
    if (result.success)
      out.push({ line, value: result.data as z.output<(typeof SOTOPIA_FILES)[K]['schema']> });
    else issues.push({ file: join(dir, file), line, error: describeZodError(result.error) });
  });
  return out;
}

/** Keeps the rows whose `check` returns null; the others become issues. */
function keep<T>(
  rows: Row<T>[],
  file: string,
  issues: ImportIssue[],
  check: (value: T) => string | null,
): T[] {
  const out: T[] = [];
  for (const r of rows) {
    const problem = check(r.value);
    if (problem === null) out.push(r.value);
    else issues.push({ file, line: r.line, error: problem });
  }
  return out;
}

/** A check that rejects a second row with the same id. */
function unique<T>(idOf: (value: T) => string, name: string): (value: T) => string | null {
  const seen = new Set<string>();
  return (value) => {
    const id = idOf(value);
    if (seen.has(id)) return `duplicate ${name} ${id}`;
    seen.add(id);
    return null;
  };
}

/**
 * Reads the four Sotopia JSONL files of `dir` (default: the shipped copy) into validated
 * records, in file order. A bad row (not JSON, a missing or ill-typed field, an unknown
 * relationship code, an unparseable constraint, broken markup, a duplicate id, or a
 * reference to an agent or scenario that is missing or was itself skipped) is skipped and
 * reported in `issues` with its file and line; nothing is dropped silently. A missing file
 * is a {@link ConfigError}.
 */
export function importSotopia(dir: string = DEFAULT_DATA_DIR): SotopiaData {
  const issues: ImportIssue[] = [];
  const files: Record<string, string> = {};
  const path = (kind: Kind) => join(dir, SOTOPIA_FILES[kind].file);
  const agents = keep(
    readRows(dir, 'agents', issues, files),
    path('agents'),
    issues,
    unique((a) => a.agent_id, 'agent_id'),
  );
  const agentIds = new Set(agents.map((a) => a.agent_id));
  const missingAgent = (ids: readonly string[]) => {
    const bad = ids.find((x) => !agentIds.has(x));
    return bad === undefined ? null : `agent ${bad} is not among the imported agents`;
  };
  const environments = keep(
    readRows(dir, 'environments', issues, files),
    path('environments'),
    issues,
    unique((e) => e.env_id, 'env_id'),
  );
  const envIds = new Set(environments.map((e) => e.env_id));
  const relUnique = unique<SotopiaRelationship>((r) => r.relationship_id, 'relationship_id');
  const relationships = keep(
    readRows(dir, 'relationships', issues, files),
    path('relationships'),
    issues,
    (r) => missingAgent([r.agent1_id, r.agent2_id]) ?? relUnique(r),
  );
  const comboUnique = unique<SotopiaCombo>((c) => c.combo_id, 'combo_id');
  const combos = keep(readRows(dir, 'combos', issues, files), path('combos'), issues, (c) =>
    envIds.has(c.env_id)
      ? (missingAgent(c.agent_ids) ?? comboUnique(c))
      : `scenario ${c.env_id} is not among the imported environments`,
  );
  const counts = {
    agents: agents.length,
    environments: environments.length,
    relationships: relationships.length,
    combos: combos.length,
  };
  return { dir, agents, environments, relationships, combos, issues: sortIssues(issues), counts, files };
}

function sortIssues(issues: ImportIssue[]): ImportIssue[] {
  const order = Object.values(SOTOPIA_FILES).map((f) => f.file);
  const rank = (i: ImportIssue) => order.findIndex((f) => i.file.endsWith(f));
  return issues.sort((a, b) => rank(a) - rank(b) || a.line - b.line);
}
