import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { type LogFormatError, processAlive } from '../../core/index.ts';
import { logError } from '../format/log-format.ts';

/** Who holds a lock: its process id, that process's start time (Linux: clock ticks since boot), and the host. */
interface Holder {
  pid: number;
  start?: number;
  host: string;
}

/** Attempts to create a lock before giving up (each may first take over a stale one). */
const ATTEMPTS = 3;

/**
 * Takes the lock of the log at `path` for this process (`<path>.lock`), for as long as it
 * writes the log; returns its release (also run when the process exits).
 *
 * Node has no advisory file locks (`flock`, `fcntl`), so the lock is a file created with
 * `O_EXCL` (atomic: of two processes, one creates it) holding the holder's pid, its start time
 * and the host. A lock whose process is gone, or whose pid now names a process started later
 * (a reused pid), is stale: it is taken over by renaming it aside and checking that the file
 * renamed is still the stale one, so that two processes taking over one stale lock cannot both
 * win. A lock from another host is never taken as stale.
 *
 * @throws LogFormatError (exit 2) when another live process holds the lock.
 */
export function holdLogLock(path: string): () => void {
  const file = `${path}.lock`;
  const mine = JSON.stringify(holderOf(process.pid));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      writeFileSync(file, mine, { flag: 'wx' });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return () => {}; // no such directory: no log to lock (its reader says so)
      if (code !== 'EEXIST') throw unlockable(path, err);
      const held = readHolder(file);
      if (held === undefined) continue; // released meanwhile
      if (!isStale(held.holder)) throw heldBy(path, held.holder, file);
      takeOver(file, held.text);
      continue;
    }
    const release = (): void => {
      if (readHolder(file)?.text === mine) rmSync(file, { force: true });
      process.off('exit', release);
    };
    process.on('exit', release);
    return release;
  }
  throw heldBy(path, readHolder(file)?.holder, file);
}

/** The holder named in a lock file, and the file's text; undefined when there is no such file. */
function readHolder(file: string): { holder: Holder | undefined; text: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const h = JSON.parse(text) as Holder;
    return { holder: Number.isSafeInteger(h.pid) && typeof h.host === 'string' ? h : undefined, text };
  } catch {
    // a lock being written this very moment, or a damaged one
    return { holder: undefined, text };
  }
}

/** True when the holder's process is known to be gone (or its pid reused); false when it may be alive. */
function isStale(holder: Holder | undefined): boolean {
  if (holder === undefined || holder.host !== hostname()) return false;
  if (!processAlive(holder.pid)) return true;
  const start = startTime(holder.pid);
  return holder.start !== undefined && start !== undefined && start !== holder.start;
}

/** Removes the stale lock whose text is `stale`, unless another process replaced it meanwhile. */
function takeOver(file: string, stale: string): void {
  const aside = `${file}.stale-${process.pid}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // another process took it over first
  }
  if (readHolder(aside)?.text !== stale) {
    // the lock renamed is a fresh one: it goes back, unless its place is taken again
    try {
      linkSync(aside, file);
    } catch {}
  }
  rmSync(aside, { force: true });
}

function holderOf(pid: number): Holder {
  const start = startTime(pid);
  return { pid, ...(start === undefined ? {} : { start }), host: hostname() };
}

/** A process's start time from `/proc/<pid>/stat` (field 22), or undefined where there is no procfs. */
function startTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isSafeInteger(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

function heldBy(path: string, holder: Holder | undefined, file: string): LogFormatError {
  const who = holder
    ? `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}`
    : 'another process';
  const hint = `wait for that run to finish or stop it (it can be resumed after); if no process writes the log any more, remove ${file}`;
  return logError(`${path} is being written by ${who}: it holds ${file}`, {}, hint);
}

function unlockable(path: string, cause: unknown): LogFormatError {
  const why = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
  const hint = 'check that the directory of the log is writable';
  return logError(`cannot lock ${path} for writing: ${why}`, {}, hint, cause);
}
