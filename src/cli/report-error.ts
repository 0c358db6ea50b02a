import { isGrapevineError } from '../core/errors.ts';
import { terminalLine } from '../core/terminal-text.ts';

/**
 * Prints an error as one line and a hint (never a stack trace) and returns the exit code:
 * the error's own for grapevine errors, 1 for anything unexpected. Both lines go through
 * {@link terminalLine}: a message quoting a crafted path or string cannot drive the
 * terminal or forge a line, and a huge one is cut.
 */
export function reportError(
  err: unknown,
  write: (s: string) => void = (s) => process.stderr.write(s),
): number {
  if (isGrapevineError(err)) {
    write(`grapevine: ${terminalLine(err.message)}\n`);
    if (err.hint) write(`hint: ${terminalLine(err.hint)}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  write(`grapevine: unexpected error: ${terminalLine(message)}\n`);
  write('hint: this is a bug in grapevine or in the world; set GRAPEVINE_DEBUG=1 for a stack trace\n');
  if (process.env.GRAPEVINE_DEBUG && err instanceof Error) write(`${err.stack}\n`);
  return 1;
}
