import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { ConfigError } from './errors.ts';
import { type MemoryBudget, memoryBudget } from './memory-budget.ts';

/** How an input file may be read. */
export interface InputFileOptions {
  /** What the file is, for messages: `edge list`, `items file`. */
  what: string;
  /**
   * Bytes of memory the reader needs per byte of the file (its text, and what it parses the
   * text into); the file must fit the memory budget by it. Default 4.
   */
  bytesPerByte?: number;
  /** Most bytes, whatever the budget (default {@link MAX_INPUT_FILE_BYTES}). */
  maxBytes?: number;
  /** Most milliseconds the read may take (default {@link INPUT_READ_MS}). */
  timeoutMs?: number;
  /** The memory budget (default `memoryBudget()`). */
  budget?: MemoryBudget;
}

/** Most bytes of one input file: V8 holds a string of at most 2^29 - 24 characters. */
export const MAX_INPUT_FILE_BYTES = 2 ** 29 - 24;

/** Most milliseconds one input file's read may take. */
export const INPUT_READ_MS = 60_000;

/** Kernel file systems whose files report a size of 0 or change while read: never input. */
const KERNEL_DIRS = ['/proc/', '/sys/', '/dev/'];

const CHUNK = 1 << 20;

function refuse(path: string, what: string, why: string, hint: string): never {
  throw new ConfigError(`cannot read ${what} ${path}: ${why}`, { hint });
}

function kernelPath(path: string): boolean {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // missing: the open below says so
  }
  return KERNEL_DIRS.some((d) => real.startsWith(d) || `${real}/` === d);
}

/** Opens `path` for reading without waiting on a FIFO's writer or becoming a terminal's reader. */
function openForInput(path: string, what: string): number {
  try {
    return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code);
    return refuse(path, what, why, 'check the path');
  }
}

/**
 * Reads an input file whole (a network, a table, a persona file), as bytes, refusing what
 * would hang, exhaust memory or leak the machine's secrets before anything is allocated for
 * it: only a regular file is read (a FIFO, device, socket or directory is refused, checked on
 * the open descriptor, which is opened non-blocking so a FIFO cannot stall the open), never
 * one under /proc, /sys or /dev (their files report a size of 0 and hold process secrets such
 * as /proc/self/environ), at most its `fstat` size (a file that holds more than it reports is
 * refused), within the memory budget (`size × bytesPerByte`) and {@link MAX_INPUT_FILE_BYTES},
 * and within a time limit checked between 1 MiB reads.
 * @throws ConfigError (exit 2) with one line naming the file and the reason.
 */
export function readInputFile(path: string, opts: InputFileOptions): Buffer {
  const { what } = opts;
  if (kernelPath(path))
    refuse(
      path,
      what,
      'a kernel file (/proc, /sys, /dev) is never read as input',
      'give the path of a regular file',
    );
  const fd = openForInput(path, what);
  try {
    const info = fstatSync(fd);
    if (!info.isFile())
      refuse(
        path,
        what,
        info.isDirectory() ? 'it is a directory' : 'not a regular file (a FIFO, device or socket)',
        'give the path of a regular file',
      );
    checkSize(path, info.size, opts);
    return readWhole(fd, path, info.size, opts);
  } finally {
    closeSync(fd);
  }
}

function checkSize(path: string, size: number, opts: InputFileOptions): void {
  const max = opts.maxBytes ?? MAX_INPUT_FILE_BYTES;
  if (size > max)
    refuse(
      path,
      opts.what,
      `${size} bytes, more than the ${max} an input file may have`,
      'split the file or use a smaller one',
    );
  const budget = opts.budget ?? memoryBudget();
  const need = size * (opts.bytesPerByte ?? 4);
  if (need > budget.bytes)
    refuse(
      path,
      opts.what,
      `reading its ${size} bytes needs about ${Math.ceil(need / 2 ** 20)} MiB, more than this run's ${Math.floor(budget.bytes / 2 ** 20)} MiB (${budget.source})`,
      'use a smaller file, or give the run more memory (GRAPEVINE_MEMORY_LIMIT)',
    );
}

function readWhole(fd: number, path: string, size: number, opts: InputFileOptions): Buffer {
  const out = Buffer.allocUnsafe(size);
  const deadline = Date.now() + (opts.timeoutMs ?? INPUT_READ_MS); // wall-clock-ok: an I/O limit, never in results
  let at = 0;
  while (at < size) {
    const n = readSync(fd, out, at, Math.min(CHUNK, size - at), at);
    if (n === 0)
      refuse(
        path,
        opts.what,
        `it shrank while read (${at} of ${size} bytes)`,
        'read it once no one writes it',
      );
    at += n;
    const late = Date.now() > deadline; // wall-clock-ok: an I/O limit, never in results
    if (late)
      refuse(
        path,
        opts.what,
        `reading took longer than ${(opts.timeoutMs ?? INPUT_READ_MS) / 1000} s`,
        'copy the file to a local disk',
      );
  }
  if (readSync(fd, Buffer.alloc(1), 0, 1, size) !== 0)
    refuse(
      path,
      opts.what,
      `it holds more than the ${size} bytes it reports`,
      'give the path of a regular file that no one writes',
    );
  return out;
}

/** {@link readInputFile} as UTF-8 text, without a byte-order mark. */
export function readInputText(path: string, opts: InputFileOptions): string {
  const text = readInputFile(path, opts).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
