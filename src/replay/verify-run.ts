import { type Json, LogFormatError } from '../core/index.ts';
import {
  type Intervention,
  type RunOptions,
  type RunResult,
  runWorld,
  type WorldDefinition,
} from '../world/index.ts';
import type { DeltaRef } from './delta-log.ts';
import { GuardedLog } from './guarded-log.ts';
import type { LogHeader } from './log-format.ts';
import { readLog } from './log-reader.ts';
import { type RecordedChain, VerifyingLog } from './verifying-log.ts';

/** What a recorded log holds, read and chain-verified. */
export interface RecordedRun {
  header: LogHeader;
  chain: RecordedChain;
  digest: string;
  complete: boolean;
  truncated: boolean;
  /** Recorded LLM calls (`llm` events), in log order. */
  llmRecords: Record<string, unknown>[];
  /** The `end` event, when the run finished. */
  end?: { reason: string; ticks: number };
  /** Recorded interventions by the tick after whose end they were applied. */
  interventions: Map<number, Intervention[]>;
  /** Snapshot events (seq and tick), in log order. */
  snapshots: { seq: number; tick: number }[];
  /** Full chain value of every tick, snapshot and intervene line, by seq (to continue a log from there). */
  boundaryChains: Map<number, string>;
  /** When the log is a delta child: the parent it reads its past from. */
  delta?: DeltaRef;
  /** Snapshot states kept while reading (see {@link ReadRecordedOptions.restoreTicks}), by seq. */
  snapshotStates: Map<number, Json>;
}

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

/** Reads a log, verifying its hash chain, and keeps each line's hash for a rerun check. */
export async function readRecordedRun(path: string, opts: ReadRecordedOptions = {}): Promise<RecordedRun> {
  const chain: RecordedChain = { hashes: [], ticks: [], types: [] };
  const llmRecords: Record<string, unknown>[] = [];
  const interventions = new Map<number, Intervention[]>();
  const snapshots: { seq: number; tick: number }[] = [];
  const boundaryChains = new Map<number, string>();
  let end: RecordedRun['end'];
  let header: LogHeader | undefined;
  const keep = new SnapshotKeeper(opts.restoreTicks ?? []);
  const lines = readLog(path);
  for (;;) {
    const step = await lines.next();
    if (step.done) {
      if (!header)
        throw new LogFormatError(`${path} holds no header`, {}, { hint: 'is this a grapevine log?' });
      return {
        header,
        chain,
        digest: step.value.digest ?? '',
        complete: step.value.complete,
        truncated: step.value.truncated,
        llmRecords,
        end,
        interventions,
        snapshots,
        boundaryChains,
        snapshotStates: keep.states(),
        ...(step.value.delta ? { delta: step.value.delta } : {}),
      };
    }
    const line = step.value;
    if (line.seq === 0) header = line.event as LogHeader;
    if (line.type === 'llm') {
      const { seq: _s, t: _t, type: _y, ...record } = line.event;
      llmRecords.push(record);
    }
    const boundary =
      line.seq === 0 || line.type === 'tick' || line.type === 'snapshot' || line.type === 'intervene';
    if (boundary && line.chain) boundaryChains.set(line.seq, line.chain);
    if (line.type === 'snapshot') {
      snapshots.push({ seq: line.seq, tick: line.t });
      keep.offer(line.seq, line.t, line.event.state as Json);
    }
    if (line.type === 'intervene') {
      const list = interventions.get(line.t) ?? [];
      list.push(line.event.intervention as Intervention);
      interventions.set(line.t, list);
    }
    if (line.type === 'end') end = { reason: String(line.event.reason), ticks: Number(line.event.ticks) };
    chain.hashes.push(line.raw.slice(-18, -2));
    chain.ticks.push(line.t);
    chain.types.push(line.type);
  }
}

/** Keeps, for each tick asked for, the last two snapshots at or before it. */
class SnapshotKeeper {
  private readonly kept: { seq: number; state: Json }[][];

  constructor(private readonly ticks: readonly number[]) {
    this.kept = ticks.map(() => []);
  }

  offer(seq: number, tick: number, state: Json): void {
    this.ticks.forEach((t, k) => {
      if (tick > t) return;
      this.kept[k].push({ seq, state });
      if (this.kept[k].length > 2) this.kept[k].shift();
    });
  }

  states(): Map<number, Json> {
    return new Map(this.kept.flat().map((s) => [s.seq, s.state]));
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
    interventionsAt: (tick) => recorded.interventions.get(tick) ?? [],
    shouldStop: (tick) =>
      end && EXTERNAL_STOPS.includes(end.reason) && tick >= end.ticks ? end.reason : null,
  });
}
