import cliProgress from 'cli-progress';

/** What a {@link Progress} bar counts, and whether it shows an estimate of the time left. */
export interface ProgressOptions {
  /** The unit after the label (default `tick`). */
  unit?: string;
  /** Show `eta {eta}s` (default false). */
  eta?: boolean;
}

/** A progress bar on stderr, shown only on a TTY and when not quiet. */
export class Progress {
  private bar?: cliProgress.SingleBar;
  private started = false;

  constructor(label: string, quiet: boolean, opts: ProgressOptions = {}) {
    if (quiet || !process.stderr.isTTY) return;
    const eta = opts.eta ? ' | eta {eta}s' : '';
    this.bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: `${label} [{bar}] ${opts.unit ?? 'tick'} {value}/{total} | {duration}s${eta}`,
        hideCursor: true,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
  }

  /** Updates the bar to `value` of `total`; starts it on first use. */
  tick(value: number, total: number): void {
    if (!this.bar) return;
    if (!this.started) {
      this.bar.start(total, value);
      this.started = true;
    }
    this.bar.update(value);
  }

  /** Removes the bar. */
  stop(): void {
    this.bar?.stop();
  }
}
