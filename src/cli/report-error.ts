import { isGrapevineError } from '../core/errors.ts';

/**
 * Prints an error as one line and a hint (never a stack trace) and returns the exit code:
 * the error's own for grapevine errors, 1 for anything unexpected.
 */
export function reportError(
  err: unknown,
  write: (s: string) => void = (s) => process.stderr.write(s),
): number {
  if (isGrapevineError(err)) {
    write(`grapevine: ${err.message}\n`);
    if (err.hint) write(`hint: ${err.hint}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  write(`grapevine: unexpected error: ${message}\n`);
  write('hint: this is a bug in grapevine or in the world; set GRAPEVINE_DEBUG=1 for a stack trace\n');
  if (process.env.GRAPEVINE_DEBUG && err instanceof Error) write(`${err.stack}\n`);
  return 1;
}
