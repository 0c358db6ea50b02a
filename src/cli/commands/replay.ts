import { UsageError } from '../../core/index.ts';
import { readRecordedRun, rerunLog } from '../../replay/index.ts';
import { reportInterrupted, StopOnSignal } from '../interrupt.ts';
import { inputFileOptions, loadWorldFromHeader } from '../load-world.ts';
import type { LogWorldOptions } from '../log-world-options.ts';
import { Progress } from '../progress.ts';
import { replayServices } from '../replay-services.ts';

/** Options of `grapevine replay`. */
export interface ReplayCommandOptions extends LogWorldOptions {
  verify?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** `grapevine replay <log> --verify`: reruns a log and proves it reproduces it. */
export async function replayCommand(path: string, opts: ReplayCommandOptions): Promise<number> {
  if (!opts.verify)
    throw new UsageError('replay needs --verify', {
      hint: 'grapevine replay <log> --verify reruns the log and checks it line by line',
    });
  const recorded = await readRecordedRun(path);
  const { def } = await loadWorldFromHeader(recorded.header, {
    worldFile: opts.world,
    logPath: path,
    ...inputFileOptions(opts),
    check: opts.check,
  });
  const progress = new Progress('replay', Boolean(opts.quiet) || Boolean(opts.json));
  const services = replayServices(recorded);
  const signals = new StopOnSignal();
  let result: Awaited<ReturnType<typeof rerunLog>>;
  try {
    result = await rerunLog(recorded, def, {
      onTick: (t, max) => {
        progress.tick(t, max);
        return signals.onTick(t);
      },
      services,
    });
  } catch (err) {
    progress.stop();
    const code = reportInterrupted(err, 'nothing was verified; run replay --verify again');
    if (code !== undefined) return code;
    throw err;
  } finally {
    signals.dispose();
    progress.stop();
  }
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify({ verified: true, log: path, digest: result.digest, events: result.events, ticks: result.ticks })}\n`,
    );
  } else if (!opts.quiet) {
    process.stdout.write(
      `verified: the rerun reproduces ${path} (${result.events} events, ${result.ticks} ticks)\ndigest ${result.digest}\n`,
    );
  }
  return 0;
}
