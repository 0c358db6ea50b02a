import { UsageError } from '../../core/index.ts';
import type { LlmFlags } from '../../llm/index.ts';
import { continueRun, holdLogLock, lastTick, readRecordedRun } from '../../replay/index.ts';
import { reportInterrupted, StopOnSignal } from '../interrupt.ts';
import { openContinuationLlm, shippedServerStarter } from '../llm-session.ts';
import { inputFileOptions, loadWorldFromHeader } from '../load-world.ts';
import type { LogWorldOptions } from '../log-world-options.ts';

/** Options of `grapevine resume`. */
export interface ResumeCommandOptions extends LlmFlags, LogWorldOptions {
  json?: boolean;
  quiet?: boolean;
}

/**
 * `grapevine resume <log>`: continues an interrupted run (killed, crashed, budget spent)
 * from its last complete tick, appending to the same log; the result equals an
 * uninterrupted run.
 */
export async function resumeCommand(path: string, opts: ResumeCommandOptions): Promise<number> {
  // refused while another process writes the log (a run still going, or another resume)
  const release = holdLogLock(path);
  try {
    return await resumeLocked(path, opts);
  } finally {
    release();
  }
}

async function resumeLocked(path: string, opts: ResumeCommandOptions): Promise<number> {
  const recorded = await readRecordedRun(path);
  if (recorded.complete && recorded.end?.reason !== 'budget-exhausted') {
    throw new UsageError(`${path} is a finished run (${recorded.end?.reason ?? 'end'}): nothing to resume`, {
      hint: 'use fork to continue a finished run in another direction',
    });
  }
  // A run killed before its tick-0 line is resumed from its header (at = -1).
  const at = lastTick(recorded);
  const { def, responders } = await loadWorldFromHeader(recorded.header, {
    worldFile: opts.world,
    logPath: path,
    ...inputFileOptions(opts),
    check: opts.check,
  });
  let services: Parameters<typeof continueRun>[0]['services'];
  let close = async () => {};
  if (def.needsLlm) {
    const llm = await openContinuationLlm(recorded, at, opts, process.env, {
      localServer: shippedServerStarter(responders),
    });
    services = llm.services;
    close = () => llm.close();
  }
  const signals = new StopOnSignal();
  try {
    const r = await continueRun({
      def,
      recorded,
      path,
      atTick: at,
      out: path,
      services,
      onTick: (t) => signals.onTick(t),
    });
    if (opts.json) process.stdout.write(`${JSON.stringify({ ...r, log: path, resumedAt: at })}\n`);
    else if (!opts.quiet)
      process.stdout.write(
        `resumed ${path} ${at < 0 ? 'from its header' : `after tick ${at}`}: ${r.ticks} ticks (${r.reason})\ndigest ${r.digest}\n`,
      );
    return 0;
  } catch (err) {
    const code = reportInterrupted(
      err,
      `${path} is as it was before this resume: run grapevine resume ${path} again`,
    );
    if (code !== undefined) return code;
    throw err;
  } finally {
    signals.dispose();
    await close();
  }
}
