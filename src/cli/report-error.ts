import { firstWorldFrame, frameText } from '../core/code-frame.ts';
import { isGrapevineError } from '../core/errors.ts';
import { terminalLine } from '../core/terminal-text.ts';

/**
 * Prints an error as one line and a hint (never a stack trace) and returns the exit code:
 * the error's own for grapevine errors, 1 for anything unexpected. An unexpected error
 * raised in a world's code names the world file, line and column where it was raised. Both
 * lines go through {@link terminalLine}: a message quoting a crafted path or string cannot
 * drive the terminal or forge a line, and a huge one is cut.
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
  const frame = firstWorldFrame(err instanceof Error ? err.stack : undefined);
  const at = frame ? frameText(frame) : undefined;
  const message =
    err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  if (at) {
    write(`grapevine: the world's code failed at ${terminalLine(at)}: ${terminalLine(message)}\n`);
    write('hint: fix the world file there; set GRAPEVINE_DEBUG=1 for the whole stack trace\n');
  } else {
    write(`grapevine: unexpected error: ${terminalLine(message)}\n`);
    write('hint: this is a bug in grapevine or in the world; set GRAPEVINE_DEBUG=1 for a stack trace\n');
  }
  if (process.env.GRAPEVINE_DEBUG && err instanceof Error) write(`${err.stack}\n`);
  return 1;
}
