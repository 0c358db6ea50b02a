import { createRequire } from 'node:module';
import type cliProgress from 'cli-progress';

// cli-progress (CommonJS) is required only when a bar is shown: a quiet or piped run, such as
// a benchmark's `grapevine run`, then does not load it and its terminal-width helpers.
const require = createRequire(import.meta.url);

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
    const bars = require('cli-progress') as typeof cliProgress;
    const eta = opts.eta ? ' | eta {eta}s' : '';
    this.bar = new bars.SingleBar(
      {
        stream: process.stderr,
        format: `${label} [{bar}] ${opts.unit ?? 'tick'} {value}/{total} | {duration}s${eta}`,
        hideCursor: true,
        clearOnComplete: true,
      },
      bars.Presets.shades_classic,
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
