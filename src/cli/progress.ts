import cliProgress from 'cli-progress';

/** A progress bar on stderr, shown only on a TTY and when not quiet. */
export class Progress {
  private bar?: cliProgress.SingleBar;

  constructor(label: string, quiet: boolean) {
    if (quiet || !process.stderr.isTTY) return;
    this.bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: `${label} [{bar}] tick {value}/{total} | {duration}s`,
        hideCursor: true,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
  }

  /** Updates the bar; starts it on first use. */
  tick(value: number, total: number): void {
    if (!this.bar) return;
    if (!this.started) {
      this.bar.start(total, 0);
      this.started = true;
    }
    this.bar.update(value);
  }
  private started = false;

  /** Removes the bar. */
  stop(): void {
    this.bar?.stop();
  }
}
