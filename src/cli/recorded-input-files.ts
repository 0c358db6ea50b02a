import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ConfigError, readInputFile, sha256Hex, terminalSafe, UsageError } from '../core/index.ts';
import type { InputFileResolver } from '../world/index.ts';

/** What a rerun of a log knows about the files its run read. */
export interface RecordedInputs {
  /** The log's header (its `params` name the files, its `inputs` hold their sha256). */
  header: Record<string, unknown>;
  /** Where the log is: a relative path is also looked for beside it. */
  logPath?: string;
  /** `--network-file FILE`: the network file to read instead (its sha256 must match the log's). */
  networkFile?: string;
  /** `--input PARAM=FILE`: files the user names for the run's parameters (a recorded sha256 must match). */
  inputs?: Record<string, string>;
}

function short(hash: string): string {
  return `${hash.slice(0, 12)}…`;
}

/**
 * The sha256 a header records for the file of parameter `param`: `inputs[param]` (the
 * engine's convention, e.g. `inputs.networkFile`), or `inputs.<group>.<param>.sha256`
 * (a world that groups its files, e.g. `inputs.survey.items`).
 */
export function recordedInputHash(header: Record<string, unknown>, param: string): string | undefined {
  const inputs = header.inputs;
  if (typeof inputs !== 'object' || inputs === null) return undefined;
  const direct = (inputs as Record<string, unknown>)[param];
  if (typeof direct === 'string') return direct;
  for (const group of Object.values(inputs)) {
    const entry =
      typeof group === 'object' && group !== null ? (group as Record<string, unknown>)[param] : undefined;
    const sha =
      typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).sha256 : undefined;
    if (typeof sha === 'string') return sha;
  }
  return undefined;
}

const SHA256 = /^[0-9a-f]{64}$/;
/** A file name a folder record may hold: one plain name, no separator, not `.` or `..`. */
const PLAIN_NAME = /^(?!\.\.?$)[\w.-]+$/;

/**
 * The `{file: sha256}` record a header keeps of a folder's files under `record`:
 * `inputs.<record>` or `inputs.<group>.<record>`. Undefined when there is none or it is not
 * such a map (every name plain, every hash 64 hex digits).
 */
export function recordedFolderHashes(
  header: Record<string, unknown>,
  record: string,
): Record<string, string> | undefined {
  const inputs = header.inputs;
  if (typeof inputs !== 'object' || inputs === null) return undefined;
  const isRecord = (v: unknown): v is Record<string, string> =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.keys(v).length > 0 &&
    Object.entries(v).every(([k, h]) => PLAIN_NAME.test(k) && typeof h === 'string' && SHA256.test(h));
  const direct = (inputs as Record<string, unknown>)[record];
  if (isRecord(direct)) return direct;
  for (const group of Object.values(inputs)) {
    const entry =
      typeof group === 'object' && group !== null ? (group as Record<string, unknown>)[record] : undefined;
    if (isRecord(entry)) return entry;
  }
  return undefined;
}

/**
 * Why folder `dir` does not hold what `hashes` records (a file so named that is there but has
 * other bytes, or cannot be read as an input file), or undefined when it does. A recorded
 * name absent from the folder passes: the world then read its own copy, as the run did.
 */
function folderMismatch(dir: string, hashes: Record<string, string>, param: string): string | undefined {
  try {
    if (!statSync(dir).isDirectory()) return `${terminalSafe(dir)} is not a folder`;
  } catch {
    return `${terminalSafe(dir)} does not exist`;
  }
  for (const [name, want] of Object.entries(hashes)) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    const h = hashOf(file, param);
    if ('why' in h) return h.why;
    if (h.sha !== want) return `${terminalSafe(file)} does not have the recorded sha256`;
  }
  return undefined;
}

/** The sha256 of a file read as input (a regular file, bounded), or the reason it cannot be read. */
function hashOf(path: string, param: string): { sha: string } | { why: string } {
  try {
    return { sha: sha256Hex(readInputFile(path, { what: `${param} file`, bytesPerByte: 1 })) };
  } catch (err) {
    return { why: (err as Error).message };
  }
}

/** `--input PARAM=FILE` flags as a map (the last of a parameter wins). @throws UsageError on another form. */
export function parseInputFlags(flags: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of flags ?? []) {
    const eq = flag.indexOf('=');
    if (eq <= 0 || eq === flag.length - 1)
      throw new UsageError(`--input expects PARAM=FILE, got "${flag}"`, {
        hint: 'e.g. --input networkFile=edges.csv or --input items=my-items.yaml',
      });
    out[flag.slice(0, eq)] = flag.slice(eq + 1);
  }
  return out;
}

/**
 * Where a rerun reads each file its log's run read. The log is untrusted: a path it names is
 * never opened because it names it. A file the user names for the parameter (`--input
 * PARAM=FILE`, `--network-file FILE`) is read (it must have the sha256 the log records, if it
 * records one); otherwise the header must record the file's sha256 (`inputs`), and the
 * recorded path (against the working directory, then beside the log) is read only as a
 * regular file within the input limits and used only when its bytes have that sha256. A log
 * that names a file and records no sha256 of it is refused.
 * @throws ConfigError (exit 2) naming the recorded hash and what was found, or the flag to give.
 */
export function recordedInputResolver(rec: RecordedInputs): InputFileResolver {
  const named = new Map<string, { flag: string; file: string }>();
  for (const [param, file] of Object.entries(rec.inputs ?? {}))
    named.set(param, { flag: `--input ${param}=${file}`, file });
  if (rec.networkFile !== undefined)
    named.set('networkFile', { flag: `--network-file ${rec.networkFile}`, file: rec.networkFile });
  return (param, path, record = param) => {
    const want = recordedInputHash(rec.header, param);
    const given = named.get(param);
    if (given) return override(param, given.flag, given.file, want);
    const shown = terminalSafe(path);
    const folder = want === undefined ? recordedFolderHashes(rec.header, record) : undefined;
    if (folder) return recordedFolder(rec, param, path, folder);
    if (want === undefined)
      throw new ConfigError(
        `the log names ${param}=${shown} but records no sha256 of it: grapevine never opens a file because a log names it`,
        { hint: `name the file yourself: --input ${param}=FILE (the file the run read)` },
      );
    const candidates = [resolve(path)];
    if (!isAbsolute(path) && rec.logPath) candidates.push(resolve(dirname(rec.logPath), path));
    const found: string[] = [];
    for (const c of [...new Set(candidates)]) {
      const h = hashOf(c, param);
      if ('sha' in h && h.sha === want) return c;
      // a path the log chose: its file's hash is not printed (it would confirm a guess of its content)
      found.push('sha' in h ? `${terminalSafe(c)} does not have it` : h.why);
    }
    throw new ConfigError(`${param} ${shown}: ${found.join('; ')}; the log recorded sha256 ${short(want)}`, {
      hint: `give the file the run read: --input ${param}=FILE (sha256 ${want})`,
    });
  };
}

/** The file the user named for `param` (`flag` as given), checked against the recorded sha256. */
function override(param: string, flag: string, file: string, want: string | undefined): string {
  const path = resolve(file);
  let dir = false;
  try {
    dir = statSync(path).isDirectory();
  } catch {
    throw new ConfigError(`${flag}: no such file`, { hint: 'check the path' });
  }
  if (dir && want === undefined) return path; // a folder the user named (a world's data folder)
  const h = hashOf(path, param);
  if ('why' in h) throw new ConfigError(h.why, { hint: 'check the path' });
  if (want !== undefined && h.sha !== want)
    throw new ConfigError(`${flag} has sha256 ${short(h.sha)}, but the log recorded sha256 ${short(want)}`, {
      hint: `give the ${param} file the run read (the same bytes)`,
    });
  return path;
}

/** The folder a log names for `param`, used only when its files have the recorded hashes. */
function recordedFolder(
  rec: RecordedInputs,
  param: string,
  path: string,
  hashes: Record<string, string>,
): string {
  const candidates = [resolve(path)];
  if (!isAbsolute(path) && rec.logPath) candidates.push(resolve(dirname(rec.logPath), path));
  const found: string[] = [];
  for (const c of [...new Set(candidates)]) {
    const why = folderMismatch(c, hashes, param);
    if (why === undefined) return c;
    found.push(why);
  }
  throw new ConfigError(`${param} ${terminalSafe(path)}: ${found.join('; ')}`, {
    hint: `give the folder the run read: --input ${param}=FOLDER`,
  });
}
