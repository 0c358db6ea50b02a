import { setImmediate as yieldToLoop } from 'node:timers/promises';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const SIGNAL_NUMBER: Record<(typeof SIGNALS)[number], number> = { SIGINT: 2, SIGTERM: 15 };

/** Thrown at a tick boundary after SIGINT or SIGTERM; the command turns it into its message and exit code. */
export class Interrupted extends Error {
  constructor(
    readonly signal: (typeof SIGNALS)[number],
    readonly tick: number,
  ) {
    super(`stopped by ${signal} after tick ${tick}`);
  }

  /** The conventional exit code of a process ended by this signal (128 + its number). */
  get exitCode(): number {
    return 128 + SIGNAL_NUMBER[this.signal];
  }
}

/**
 * Lets a running command stop cleanly on SIGINT/SIGTERM: the handler only records the
 * signal; {@link StopOnSignal.onTick} (passed as the run's onTick hook) gives the event loop
 * a turn after every tick, so the signal is seen even by a run that never waits for I/O, and
 * throws {@link Interrupted} at that tick boundary, after the tick's lines were flushed. A
 * second signal ends the process at once.
 */
export class StopOnSignal {
  private signal: (typeof SIGNALS)[number] | undefined;
  private readonly handler = (sig: (typeof SIGNALS)[number]) => {
    if (this.signal) process.exit(128 + SIGNAL_NUMBER[sig]);
    this.signal = sig;
    process.stderr.write(
      `grapevine: ${sig} received: stopping at the end of this tick (again to quit now)\n`,
    );
  };

  constructor() {
    for (const s of SIGNALS) process.on(s, this.handler);
  }

  /** The tick hook: yields to the event loop, then stops the run if a signal came. */
  readonly onTick = async (tick: number): Promise<void> => {
    await yieldToLoop();
    if (this.signal) throw new Interrupted(this.signal, tick);
  };

  /** Removes the handlers. */
  dispose(): void {
    for (const s of SIGNALS) process.off(s, this.handler);
  }
}

/**
 * Prints what an interruption left behind (`next`: how to go on) and returns the exit
 * code; returns undefined for any other error.
 */
export function reportInterrupted(err: unknown, next: string): number | undefined {
  if (!(err instanceof Interrupted)) return undefined;
  process.stderr.write(`grapevine: ${err.message}; ${next}\n`);
  return err.exitCode;
}
