import type { Json } from '../../core/index.ts';
import type { Intervention, RunOptions, RunResult, WorldDefinition } from '../../world/index.ts';
import { recordedExecutor, runWorld } from '../../world/index.ts';
import type { RecordedRun } from '../read/recorded-run.ts';
import { GuardedLog } from '../write/guarded-log.ts';
import { VerifyingLog, type VerifyingTail } from './verifying-log.ts';

/** Stop reasons that come from outside the world (a replay must stop at the same tick). */
const EXTERNAL_STOPS: readonly string[] = ['budget-exhausted'];

/** Options of {@link rerunLog}. */
export interface RerunOptions {
  onTick?: (tick: number, max: number) => unknown;
  /** Services for worlds that need them (e.g. a replaying LLM port and its input buffer). */
  services?: Pick<RunOptions, 'llm' | 'llmInfo' | 'inputs' | 'fallbacks'>;
}

/** Reruns the run a log records from its header alone, and proves that it reproduces the log line for line (wall aside). @throws DivergenceError naming the first differing event. */
export async function rerunLog(
  recorded: RecordedRun,
  def: WorldDefinition,
  opts: RerunOptions = {},
): Promise<RunResult> {
  const end = recorded.end;
  const external = end && EXTERNAL_STOPS.includes(end.reason) ? end : undefined;
  return rerunRecorded(def, recorded, {
    onTick: opts.onTick,
    ...opts.services,
    shouldStop: (tick) => (external && tick >= external.ticks ? external.reason : null),
  });
}

/**
 * Runs the world as the recording's header says, each line checked against the recording by
 * a {@link VerifyingLog} (from `tail`), which `onLog` sees; the first line that differs stops
 * the run with a DivergenceError. The recorded interventions are applied up to tick `atTick`,
 * then `interventions` after it, none later. `opts` adds to or overrides the run's options.
 * The one way a recording is rerun: `rerunLog`, `continueRun` and `restoreOnce`'s rerun.
 */
export function rerunRecorded(
  def: WorldDefinition,
  recorded: RecordedRun,
  opts: Partial<RunOptions>,
  from: {
    atTick?: number;
    interventions?: readonly Intervention[];
    tail?: VerifyingTail;
    onLog?: (log: VerifyingLog) => void;
  } = {},
): Promise<RunResult> {
  const { atTick = Number.POSITIVE_INFINITY, interventions = [] } = from;
  const at = (t: number) => recorded.interventions.get(t) ?? [];
  return runWorld(def, {
    ...recordedRunOptions(recorded.header),
    interventionsAt: (t) => (t < atTick ? at(t) : t === atTick ? [...at(t), ...interventions] : []),
    openLog: (header) => {
      const log = new VerifyingLog(header, recorded.chain, from.tail);
      from.onLog?.(log);
      return new GuardedLog(log);
    },
    ...opts,
  });
}

/** The options of `runWorld` that rerun the run a log header describes. */
export function recordedRunOptions(h: Record<string, unknown>): RunOptions {
  return {
    params: h.params as Record<string, unknown>,
    worldVersion: (h.world as { version: string }).version,
    seed: h.seed as number,
    ticks: h.ticks as number,
    level: h.level as 'minimal' | 'full',
    addressees: h.addressees === true,
    source: (h.world as { source: Record<string, Json> }).source,
    snapshotEvery: (h.snapshotEvery as number | undefined) ?? 0,
    executor: recordedExecutor(h),
  };
}
