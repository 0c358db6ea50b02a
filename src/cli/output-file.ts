import { linkSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive, UsageError } from '../core/index.ts';
import { checkOutPath } from './flags.ts';

/**
 * The rules every file a command writes follows (`--out`, or a default path beside its
 * input): an existing file, or a symlink even when dangling, is refused unless `--force`;
 * the content is written to a temporary file beside it (created exclusively), which is
 * then moved into place in one step: without `--force` by a hard link that fails when the
 * path appeared meanwhile (two writers racing to one path: one wins, the other exits 2),
 * with `--force` by a rename, which replaces a symlink itself and never writes through it.
 * Temporary files are removed on any exit the process sees (an error, SIGINT, SIGTERM).
 */

/** True when something (a file, a folder, a symlink, dangling or not) is at `path`. */
function occupied(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks an output path before any work: its folder can be created, it is not a folder, and
 * without `force` nothing is there yet.
 * @throws UsageError (exit 2) naming the path and the flag to use.
 */
export function checkOutputFile(out: string, force: boolean | undefined, flag = '--out'): void {
  checkOutPath(out);
  if (!force && occupied(out))
    throw new UsageError(`${out} already exists`, {
      hint: `choose another ${flag}, or add --force to replace it`,
    });
}

const pending = new Set<string>();
let unhook: (() => void) | undefined;

function removePending(): void {
  for (const p of pending) rmSync(p, { force: true });
  pending.clear();
}

/**
 * While temporary files are registered, removes them when the process exits, and on
 * SIGINT/SIGTERM when no other handler (a run that stops at a tick boundary) is listening:
 * then the signal ends the process as it would have, after the removal. The handlers are
 * taken off once no temporary file is left (a command run in-process leaves none behind).
 */
function hookExit(): void {
  if (unhook) return;
  const onSignal = (sig: NodeJS.Signals) => {
    removePending();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  const signals = (['SIGINT', 'SIGTERM'] as const).filter((sig) => process.listenerCount(sig) === 0);
  process.on('exit', removePending);
  for (const sig of signals) process.on(sig, onSignal);
  unhook = () => {
    process.off('exit', removePending);
    for (const sig of signals) process.off(sig, onSignal);
    unhook = undefined;
  };
}

/** Forgets a temporary file (removed or published); the exit hooks go with the last one. */
function forget(path: string): void {
  pending.delete(path);
  if (pending.size === 0) unhook?.();
}

/** Removes a temporary file now (if it is still there) and forgets it. */
export function discardTemporary(path: string): void {
  rmSync(path, { force: true });
  forget(path);
}

/**
 * Registers a temporary file (or one a library writes beside it) for removal on exit;
 * returns the function that removes it now and forgets it.
 */
export function removeOnExit(path: string): () => void {
  hookExit();
  pending.add(path);
  return () => {
    rmSync(path, { force: true });
    forget(path);
  };
}

/** Removes the staging files (and their own temporary files) of killed writers of `out`. */
function removeStaleStaging(out: string): void {
  const prefix = `.${basename(out)}.grapevine-`;
  let names: string[];
  try {
    names = readdirSync(dirname(out));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid))
      rmSync(join(dirname(out), name), { force: true });
  }
}

/**
 * A temporary path beside `out`, with the same name ending (so `.gz` still means gzip),
 * removed on exit; the staging files of killed writers of `out` are removed first.
 */
export function stagingPath(out: string): string {
  removeStaleStaging(out);
  const tag = `${process.pid}-${Math.floor(performance.now() * 1000).toString(36)}`;
  const path = join(dirname(out), `.${basename(out)}.grapevine-${tag}-${basename(out)}`);
  removeOnExit(path);
  return path;
}

/**
 * Moves a finished temporary file to `out` in one step (see the rules above) and forgets it.
 * @throws UsageError (exit 2) when, without `force`, another process created `out` meanwhile.
 */
export function publishOutput(staging: string, out: string, force: boolean | undefined): void {
  try {
    if (force) renameSync(staging, out);
    else {
      try {
        linkSync(staging, out);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        throw new UsageError(`${out} appeared while this command wrote it (another process wrote it first)`, {
          hint: 'choose another --out, or add --force to replace it',
        });
      }
      rmSync(staging, { force: true });
    }
  } finally {
    rmSync(staging, { force: true });
    forget(staging);
  }
}

/**
 * Writes `out` by the rules: `write` fills a temporary file beside it, which is then
 * published; on any failure the temporary file is removed and `out` is as it was.
 */
export async function writeOutput<T>(
  out: string,
  force: boolean | undefined,
  write: (staging: string) => T | Promise<T>,
): Promise<T> {
  checkOutputFile(out, force);
  mkdirSync(dirname(out), { recursive: true });
  const staging = stagingPath(out);
  try {
    const result = await write(staging);
    publishOutput(staging, out, force);
    return result;
  } finally {
    rmSync(staging, { force: true });
    forget(staging);
  }
}

/** {@link writeOutput} of a whole text or buffer (created exclusively, never through a symlink). */
export function writeOutputText(
  out: string,
  data: string | Uint8Array,
  force: boolean | undefined,
): Promise<void> {
  return writeOutput(out, force, (staging) => writeFileSync(staging, data, { flag: 'wx' }));
}
