import { isGrapevineError, RunError } from '../../core/index.ts';
import type { RunLog } from '../../world/index.ts';

/**
 * Wraps a {@link RunLog} so that a failure to write any line stops the run at the next tick
 * boundary, cleanly. Some lines (`send`, `observe`) are appended from inside the message bus's
 * subscribers, where a thrown error would be swallowed; so `append` never throws: it keeps the
 * first failure, drops every later line, and `flush` (at the end of each tick) and `close` throw
 * it, so the log ends at its last complete tick. An error that already means "the run failed"
 * (exit 1, e.g. a divergence) is thrown as it is, any other as a {@link RunError} naming the line.
 */
export class GuardedLog implements RunLog {
  private failure: Error | undefined;
  private next = 0;
  private flushes = 0;

  constructor(private readonly inner: RunLog) {
    this.next = inner.seq;
  }

  append(type: string, t: number, fields: Record<string, unknown>): number {
    if (this.failure) return ++this.next;
    try {
      this.next = this.inner.append(type, t, fields);
    } catch (err) {
      this.failure = asRunFailure(err, `cannot write the ${type} line of tick ${t}`);
      this.next++;
    }
    return this.next;
  }

  flush(): void {
    this.guard(() => this.inner.flush(), 'cannot write the log');
    this.flushes++;
  }

  close(): string {
    return this.guard(() => this.inner.close(), 'cannot write the end of the log');
  }

  get seq(): number {
    return this.next;
  }

  get format(): string | undefined {
    return this.inner.format;
  }

  /** True once a tick's lines were written whole (the engine flushes at the end of each tick). */
  get ticked(): boolean {
    return this.flushes > 0;
  }

  private guard<T>(write: () => T, what: string): T {
    if (this.failure) throw this.failure;
    try {
      return write();
    } catch (err) {
      this.failure = asRunFailure(err, what);
      throw this.failure;
    }
  }
}

function asRunFailure(err: unknown, what: string): Error {
  if (isGrapevineError(err) && err.exitCode === 1) return err;
  const message = err instanceof Error ? err.message : String(err);
  // the writer's own hint says what went wrong (a line too long, a field that is not JSON, a full disk)
  const cause = isGrapevineError(err) && err.hint !== '' ? `${err.hint}; ` : '';
  return new RunError(`the run stopped: ${what}: ${message}`, {
    cause: err,
    hint: `${cause || 'fix the world (log fields must be JSON-safe, finite numbers), then rerun; '}the log ends at the last complete tick`,
  });
}
