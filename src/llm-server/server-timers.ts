/**
 * The local server's timers (injected latency, the timeout fault's hold limit): the only
 * wall-clock waits in `src/`. They are tracked so that closing the server cancels them.
 */
export class ServerTimers {
  private readonly pending = new Map<ReturnType<typeof setTimeout>, () => void>();

  /**
   * Waits `ms` milliseconds. Resolves `true` when the time is up, `false` when the timers
   * were cancelled by {@link ServerTimers.cancelAll} first. Resolves at once for `ms <= 0`.
   */
  wait(ms: number): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        this.pending.delete(timer);
        resolve(true);
      };
      const timer = setTimeout(done, ms); // wall-clock-ok: test server latency injection
      this.pending.set(timer, () => resolve(false));
    });
  }

  /** Cancels every pending wait (each resolves `false`). */
  cancelAll(): void {
    for (const [timer, cancel] of this.pending) {
      clearTimeout(timer);
      cancel();
    }
    this.pending.clear();
  }
}
