import type { RunOptions, RunResult, WorldDefinition } from '../../world/index.ts';
import { runWorld } from '../../world/index.ts';
import type { RecordedRun } from '../read/recorded-run.ts';
import { GuardedLog } from '../write/guarded-log.ts';
import { recordedRunOptions } from './continue-run.ts';
import { VerifyingLog } from './verifying-log.ts';

/** Stop reasons that come from outside the world (a replay must stop at the same tick). */
export const EXTERNAL_STOPS: readonly string[] = ['budget-exhausted'];

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
  const end = recorded.end;
  return runWorld(def, {
    ...recordedRunOptions(recorded.header),
    openLog: (header) => new GuardedLog(new VerifyingLog(header, recorded.chain)),
    onTick: opts.onTick,
    ...opts.services,
    interventionsAt: (tick) => recorded.interventions.get(tick) ?? [],
    shouldStop: (tick) =>
      end && EXTERNAL_STOPS.includes(end.reason) && tick >= end.ticks ? end.reason : null,
  });
}
