import { LogFormatError } from '../core/index.ts';
import {
  type RunOptions,
  type RunResult,
  recordedExecutor,
  runWorld,
  type WorldDefinition,
} from '../world/index.ts';
import { GuardedLog } from './guarded-log.ts';
import { readLog } from './log-reader.ts';
import { type RecordedRun, RecordedRunBuilder } from './recorded-run.ts';
import { readForRerun } from './tail-reader.ts';
import { VerifyingLog } from './verifying-log.ts';

/** Options of {@link readRecordedRun}. */
export interface ReadRecordedOptions {
  /**
   * Keep the states of the snapshots a continuation after each of these ticks restores
   * (the last two snapshots at or before each), so that it need not read the log again.
   */
  restoreTicks?: readonly number[];
}

/** Stop reasons that come from outside the world (a replay must stop at the same tick). */
export const EXTERNAL_STOPS: readonly string[] = ['budget-exhausted'];

/**
 * Reads a log, verifying its hash chain, and keeps each line's hash for a rerun check.
 * Without `restoreTicks`, a plain log's snapshot lines are checked by their chain over their
 * bytes and not parsed (see `readForRerun`): nothing keeps their state, and a rerun proves
 * their bytes. A log that read finds anything wrong in is read the full way.
 */
export async function readRecordedRun(path: string, opts: ReadRecordedOptions = {}): Promise<RecordedRun> {
  if ((opts.restoreTicks ?? []).length === 0) {
    const run = await readForRerun(path);
    if (run) return run;
  }
  const builder = new RecordedRunBuilder(opts.restoreTicks ?? [], path);
  const lines = readLog(path);
  for (;;) {
    const step = await lines.next();
    if (step.done) {
      const run = builder.finish(step.value);
      if (!run) throw new LogFormatError(`${path} holds no header`, {}, { hint: 'is this a grapevine log?' });
      return run;
    }
    builder.add(step.value);
  }
}

/** Options of {@link rerunLog}. */
export interface RerunOptions {
  onTick?: (tick: number, max: number) => unknown;
  /** Services for worlds that need them (e.g. a replaying LLM port and its input buffer). */
  services?: Pick<RunOptions, 'llm' | 'llmInfo' | 'inputs' | 'fallbacks'>;
}

/**
 * Reruns the run a log records, from its header alone, and proves that it reproduces the
 * log line for line (wall-clock fields aside). Throws a DivergenceError naming the first
 * differing event.
 */
export async function rerunLog(
  recorded: RecordedRun,
  def: WorldDefinition,
  opts: RerunOptions = {},
): Promise<RunResult> {
  const h = recorded.header;
  const end = recorded.end;
  return runWorld(def, {
    params: h.params as Record<string, unknown>,
    worldVersion: (h.world as { version: string }).version,
    seed: h.seed as number,
    ticks: h.ticks as number,
    level: h.level as 'minimal' | 'full',
    addressees: h.addressees === true,
    source: (h.world as { source: Record<string, never> }).source,
    openLog: (header) => new GuardedLog(new VerifyingLog(header, recorded.chain)),
    onTick: opts.onTick,
    ...opts.services,
    snapshotEvery: (h.snapshotEvery as number | undefined) ?? 0,
    executor: recordedExecutor(h),
    interventionsAt: (tick) => recorded.interventions.get(tick) ?? [],
    shouldStop: (tick) =>
      end && EXTERNAL_STOPS.includes(end.reason) && tick >= end.ticks ? end.reason : null,
  });
}
