// The replay log's names and line shape; the format is specified in docs/LOG-FORMAT.md.

import { LogFormatError, type LogPosition } from '../../core/index.ts';

/** The format tag written in the header of every new log, and the prefix of its hash chain. */
export const LOG_FORMAT = 'grapevine-log/3';

/** Every format this grapevine reads, verifies, replays, resumes and forks (in that format), oldest first. */
export const READABLE_FORMATS = ['grapevine-log/1', 'grapevine-log/2', LOG_FORMAT] as const;

/** A format this grapevine reads. */
export type LogFormat = (typeof READABLE_FORMATS)[number];

/** True when `format` is one this grapevine reads. */
export function isReadableFormat(format: unknown): format is LogFormat {
  return READABLE_FORMATS.includes(format as LogFormat);
}

/** Keys that the log itself owns; callers cannot set them as payload fields. */
export const RESERVED_FIELDS: readonly string[] = ['seq', 't', 'type', 'h', 'format'];

/** Longest line (in bytes) the reader accepts and the writer writes; a longer one means the file is not a log. */
export const MAX_LINE = 256 * 1024 * 1024;

/** Fields of a log line other than the ones the log owns: any JSON-safe values. */
export type LogFields = Record<string, unknown>;

/** The parsed header line of a log (line 1), without its `h`. */
export interface LogHeader extends LogFields {
  type: 'header';
  seq: 0;
  t: 0;
  format: LogFormat;
}

/** True when `path` names a gzip-compressed log (it ends in `.gz`). */
export function isGzipPath(path: string): boolean {
  return path.endsWith('.gz');
}

/** One complete, verified line of a log, as the reader yields it: its `seq`, `t` and `type` (docs/LOG-FORMAT.md, "Lines"), and more. */
export interface LogLine {
  seq: number;
  t: number;
  type: string;
  /** 1-based line number in the (decompressed) file. */
  line: number;
  /** The line's exact text, without its `\n`. */
  raw: string;
  /** The parsed line, without `h` (with `wall`, when present). */
  event: Record<string, unknown>;
  /** Full 64-hex chain value after this line (when read with verification). */
  chain?: string;
  /** Byte offset of the line in a plain file (a read that starts at an offset sets it). */
  offset?: number;
  /** The bytes without `\n` of a `snapshot` or `snapshot-part` line read over bytes and parsed (a patch base). */
  bytes?: Buffer;
  /** The content ranges `[start, end, ...]` of its long JSON strings, when the reader found them. */
  longStrings?: number[];
}

/** The hint of an error about a log whose bytes are not the ones written. */
export const DAMAGED = 'the log was damaged or edited after it was written; restore it from a copy or rerun';

/** The one way a {@link LogFormatError} is made: what is wrong, where, how to fix it (by default: {@link DAMAGED}), and why. */
export function logError(
  message: string,
  position: LogPosition = {},
  hint = DAMAGED,
  cause?: unknown,
): LogFormatError {
  return new LogFormatError(message, position, { cause, hint });
}
