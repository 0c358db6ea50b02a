/**
 * Every error grapevine raises on purpose is a {@link GrapevineError}: it has a stable
 * `code`, a one-line `message` that names the problem, a `hint` that says how to fix it,
 * and the process exit code the CLI should use (1 = failed run or divergence, 2 = bad
 * input: usage, config, unreadable or tampered log).
 */
export class GrapevineError extends Error {
  /** Stable machine-readable code, e.g. `E_CONFIG`. */
  readonly code: string;
  /** One line telling the user what to do about it. */
  readonly hint: string;
  /** Exit code the CLI uses for this error. */
  readonly exitCode: 1 | 2;

  constructor(
    code: string,
    message: string,
    opts: { hint?: string; cause?: unknown; exitCode?: 1 | 2 } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = opts.hint ?? '';
    this.exitCode = opts.exitCode ?? 2;
  }
}

/** Options shared by the subclasses. */
export interface ErrorOptions {
  hint?: string;
  cause?: unknown;
}

/** Bad command-line usage (unknown flag, missing argument). Exit 2. */
export class UsageError extends GrapevineError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super('E_USAGE', message, { ...opts, exitCode: 2 });
  }
}

/** A world parameter, config file or world definition is invalid. Exit 2. */
export class ConfigError extends GrapevineError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super('E_CONFIG', message, { ...opts, exitCode: 2 });
  }
}

/** A world could not be found or loaded. Exit 2. */
export class WorldNotFoundError extends GrapevineError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super('E_WORLD', message, { ...opts, exitCode: 2 });
  }
}

/** Where in a replay log something went wrong. */
export interface LogPosition {
  /** 1-based line number in the file. */
  line?: number;
  /** Event sequence number (0 = header). */
  seq?: number;
  /** Simulation tick of the event. */
  tick?: number;
}

/** A replay log is missing, unreadable, malformed or tampered with. Exit 2. */
export class LogFormatError extends GrapevineError {
  /** Where the problem was found, when known. */
  readonly position: LogPosition;
  constructor(message: string, position: LogPosition = {}, opts: ErrorOptions = {}) {
    super('E_LOG', message, { ...opts, exitCode: 2 });
    this.position = position;
  }
}

/** A rerun did not reproduce its log. Exit 1. */
export class DivergenceError extends GrapevineError {
  /** The first event that differs. */
  readonly position: LogPosition;
  constructor(message: string, position: LogPosition, opts: ErrorOptions = {}) {
    super('E_DIVERGED', message, { ...opts, exitCode: 1 });
    this.position = position;
  }
}

/** A run failed while executing (a policy threw, a stop was forced). Exit 1. */
export class RunError extends GrapevineError {
  constructor(message: string, opts: ErrorOptions = {}) {
    super('E_RUN', message, { ...opts, exitCode: 1 });
  }
}

/** True when `err` is a {@link GrapevineError}. */
export function isGrapevineError(err: unknown): err is GrapevineError {
  if (err instanceof GrapevineError) return true;
  // A world file loaded through the TypeScript loader may bring its own copy of this class.
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; exitCode?: unknown; hint?: unknown };
  return (
    typeof e.code === 'string' &&
    e.code.startsWith('E_') &&
    (e.exitCode === 1 || e.exitCode === 2) &&
    typeof e.hint === 'string'
  );
}
