import type { LogFormatError } from '../../core/index.ts';
import { type LogFields, logError, MAX_LINE, RESERVED_FIELDS } from '../format/log-format.ts';

/** A line the reader would refuse is never written. */
export function tooLong(type: string, seq: number, bytes: number): LogFormatError {
  const size = `${(bytes / 2 ** 20).toFixed(0)} MiB, over the ${MAX_LINE / 2 ** 20} MiB a log line may hold`;
  const hint = `this ${type} event grows with the population (snapshots are split into parts, other events are not); run fewer agents, a sparser network or --log minimal`;
  return logError(`cannot write ${type} line (seq ${seq}): it is ${size}`, { seq }, hint);
}

/** @throws LogFormatError when `fields` set a key the log owns. */
export function checkReserved(fields: LogFields, what: string): void {
  const hint = `the fields ${RESERVED_FIELDS.join(', ')} are reserved; rename the payload field`;
  const key = RESERVED_FIELDS.find((k) => Object.hasOwn(fields, k));
  if (key) throw logError(`cannot write ${what} line: the field ${key} is set by the log writer`, {}, hint);
}

/** A line whose fields are not JSON. */
export function unwritable(type: string, seq: number, cause: unknown): LogFormatError {
  const hint = 'log fields must be JSON-safe: plain objects, arrays, strings, finite numbers';
  const message = `cannot write ${type} line (seq ${seq}): ${(cause as Error).message}`;
  return logError(message, { seq }, hint, cause);
}

/** A failed file operation; a full disk's hint says what to do once there is room (`then`). */
export function ioError(message: string, cause: unknown, then = 'resume the run'): LogFormatError {
  const code = (cause as NodeJS.ErrnoException).code;
  const reason = code ?? (cause as Error).message;
  const hint =
    code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG'
      ? `free disk space (or lift the file size limit), then ${then}`
      : 'check the path and its permissions';
  return logError(`${message}: ${reason}`, {}, hint, cause);
}
