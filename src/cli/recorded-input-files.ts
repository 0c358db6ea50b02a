import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ConfigError, sha256Hex } from '../core/index.ts';
import type { InputFileResolver } from '../world/index.ts';

/** What a rerun of a log knows about the files its run read. */
export interface RecordedInputs {
  /** The log's header (its `params` name the files, its `inputs` hold their sha256). */
  header: Record<string, unknown>;
  /** Where the log is: a relative path is also looked for beside it. */
  logPath?: string;
  /** `--network-file FILE`: the network file to read instead (its sha256 must match the log's). */
  networkFile?: string;
}

function short(hash: string): string {
  return `${hash.slice(0, 12)}…`;
}

function hashOf(path: string): string | undefined {
  return existsSync(path) && statSync(path).isFile() ? sha256Hex(readFileSync(path)) : undefined;
}

/**
 * Where a rerun reads each file its log's run read. A file whose sha256 the header records
 * (`inputs[param]`) is taken from the override (`--network-file`, which must have that
 * sha256), else from the recorded path against the working directory, else against the
 * log's folder, whichever has that sha256. A log without the hash reads the path as before.
 * @throws ConfigError (exit 2) naming the recorded hash and the hash found.
 */
export function recordedInputResolver(rec: RecordedInputs): InputFileResolver {
  const recordedHashes = (rec.header.inputs ?? {}) as Record<string, unknown>;
  return (param, path) => {
    const want = typeof recordedHashes[param] === 'string' ? (recordedHashes[param] as string) : undefined;
    if (param === 'networkFile' && rec.networkFile !== undefined) return override(rec.networkFile, want);
    const candidates = [resolve(path)];
    if (!isAbsolute(path) && rec.logPath) candidates.push(resolve(dirname(rec.logPath), path));
    if (want === undefined) return candidates.find((c) => existsSync(c)) ?? candidates[0];
    const found: string[] = [];
    for (const c of candidates) {
      const h = hashOf(c);
      if (h === want) return c;
      if (h !== undefined) found.push(`${c} has sha256 ${short(h)}`);
    }
    throw new ConfigError(
      `${param} ${path}: ${found.length ? found.join('; ') : `not found (looked in ${[...new Set(candidates)].join(' and ')})`}; the log recorded sha256 ${short(want)}`,
      { hint: `give the file the run read: --network-file FILE (sha256 ${want})` },
    );
  };
}

function override(file: string, want: string | undefined): string {
  const path = resolve(file);
  const h = hashOf(path);
  if (h === undefined)
    throw new ConfigError(`--network-file ${file}: no such file`, { hint: 'check the path' });
  if (want !== undefined && h !== want)
    throw new ConfigError(
      `--network-file ${file} has sha256 ${short(h)}, but the log recorded sha256 ${short(want)}`,
      { hint: 'give the network file the run read (the same bytes)' },
    );
  return path;
}
