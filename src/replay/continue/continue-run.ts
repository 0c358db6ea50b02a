import { renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, type Json } from '../../core/index.ts';
import type { EngineState, Intervention, RunOptions, RunResult, WorldDefinition } from '../../world/index.ts';
import { deltaHeaderLine } from '../format/delta-ref.ts';
import { isGzipPath, LOG_FORMAT } from '../format/log-format.ts';
import { SNAPSHOT_PART } from '../format/snapshot-split.ts';
import type { RecordedRun } from '../read/recorded-run.ts';
import { cloneSnapshotState } from '../read/snapshot-line.ts';
import { GuardedLog } from '../write/guarded-log.ts';
import { writeLogFile } from '../write/log-file.ts';
import { LogWriter, type PatchBase } from '../write/log-writer.ts';
import { copyOwnLines, copyPrefix, linesUpTo, snapshotState } from './copy-lines.ts';
import { rerunRecorded } from './rerun-log.ts';
import { removeStalePartials } from './stale-partials.ts';

/** How to continue a recorded run past one of its ticks. */
export interface ContinueOptions extends Pick<RunOptions, 'onTick' | 'onStart' | 'onReady'> {
  def: WorldDefinition;
  /** The log read and chain-verified by readRecordedRun, and its path. */
  recorded: RecordedRun;
  path: string;
  /** The last tick taken from the recording; -1 = none (rerun from the header: a run killed before tick 0 ended). */
  atTick: number;
  /** Where the continued log goes (the same path to resume in place). */
  out: string;
  /** Applied right after `atTick` and recorded in the new log (fork). */
  interventions?: readonly Intervention[];
  /** Extra header `wall` fields (fork provenance). */
  wall?: Record<string, Json>;
  /** LLM and inputs for the continued run (recorded replies up to `atTick`, live after). */
  services?: Pick<RunOptions, 'llm' | 'llmInfo' | 'inputs' | 'fallbacks' | 'shouldStop'>;
  /** How a new `out` holds the shared past: `delta`, a header naming `path` (docs/LOG-FORMAT.md); `standalone` (default), a copy. */
  layout?: 'delta' | 'standalone';
  /** The caller does not use `recorded` again (a single fork): its kept snapshot state is restored as it is, not copied. */
  ownsRecorded?: boolean;
  /** The state at the end of `atTick`, taken once for several children (`restoreOnce`): restored instead of a snapshot. */
  restored?: RestoredPoint;
}

/** A run's state (as a snapshot holds it) at the end of a tick, before its interventions, and the seq and chain value of its log then. */
export interface RestoredPoint {
  state: Json;
  seq: number;
  chain: string;
}

const BOUNDARY_TAIL = new Set(['snapshot', 'intervene']);

/** Seq of the last line of tick `tick` in a recording (its tick line, then its snapshot and interventions). */
export function endOfTick(recorded: RecordedRun, tick: number): number {
  const { types, ticks } = recorded.chain;
  let seq = types.findLastIndex((type, k) => type === 'tick' && ticks[k] === tick);
  if (seq < 0) {
    const last = lastTick(recorded);
    throw new ConfigError(`tick ${tick} is not in the log (it has ticks 0..${last})`, {
      hint: `choose a tick from 0 to ${last}`,
    });
  }
  // The tick's periodic snapshot (with its parts) and its interventions belong to it. The
  // final snapshot does not: it is the one before `end`, or, in a log cut before its end, a
  // snapshot the tick does not take periodically (a second one, or at a tick that is not a
  // multiple of snapshotEvery). Nor do parts whose snapshot line is missing (a cut log).
  const every = recorded.header.snapshotEvery;
  let periodic = typeof every !== 'number' || (every > 0 && tick > 0 && tick % every === 0);
  for (;;) {
    let next = seq + 1;
    while (types[next] === SNAPSHOT_PART && ticks[next] === tick) next++;
    const partsOnly = next > seq + 1 && types[next] !== 'snapshot';
    const final = types[next] === 'snapshot' && (!periodic || types[next + 1] === 'end');
    if (partsOnly || final || !BOUNDARY_TAIL.has(types[next]) || ticks[next] !== tick) return seq;
    if (types[next] === 'snapshot') periodic = false;
    seq = next;
  }
}

/** The last complete tick of a recording. */
export function lastTick(recorded: RecordedRun): number {
  const { types, ticks } = recorded.chain;
  const k = types.lastIndexOf('tick');
  return k < 0 ? -1 : ticks[k];
}

/** The snapshot a continuation after `atTick` restores (the latest at or before the end of that tick), if any. */
export function restorePoint(
  recorded: RecordedRun,
  atTick: number,
): { seq: number; tick: number } | undefined {
  if (atTick < 0) return undefined;
  const until = endOfTick(recorded, atTick);
  return recorded.snapshots.findLast((s) => s.seq <= until);
}

/** The recorded LLM calls a continuation after `atTick` replays: those after its restore point, up to `atTick`. */
export function recordsToReplay(recorded: RecordedRun, atTick: number): Record<string, unknown>[] {
  if (atTick < 0) return [];
  const from = restorePoint(recorded, atTick)?.tick ?? 0;
  return recorded.llmRecords.filter((r) => (r.tick as number) > from && (r.tick as number) <= atTick);
}

/** True when the continuation writes over the log it continues (resume in place). */
const inPlace = (o: ContinueOptions): boolean => resolve(o.out) === resolve(o.path);

/** Writes the past of the continued log to `target` (a copy, a delta header, or a child's own lines, resumed in place); returns the state at `snapSeq`. */
async function writePrefix(
  o: ContinueOptions,
  target: string,
  until: number,
  snapSeq: number | undefined,
  patchBase: PatchBase | undefined,
): Promise<Json | undefined> {
  const { delta, digest, boundaryChains, chain, snapshotStates } = o.recorded;
  const kept = snapSeq !== undefined && snapshotStates.has(snapSeq);
  let read: Json | undefined;
  if (inPlace(o) && delta && until >= delta.seq) await copyOwnLines(o.path, target, until);
  else if (!inPlace(o) && o.layout === 'delta') {
    const base = patchBase && ([patchBase[0].seq, patchBase[patchBase.length - 1].seq] as [number, number]);
    const at = {
      digest,
      atTick: o.atTick,
      seq: until,
      chain: boundaryChains.get(until)!,
      ...(base && { base }),
    };
    // a child keeps its parent's format (patches only where it is format 3, see patchBaseOf)
    await writeLogFile(target, [deltaHeaderLine(o.out, o.path, at, o.wall, chain.format)]);
  } else read = await copyPrefix(o.path, target, until, o.wall, kept ? undefined : snapSeq);
  if (snapSeq === undefined) return undefined;
  return read ?? snapshotState(o.recorded, o.path, snapSeq, o.ownsRecorded);
}

/**
 * The parent snapshot a delta child's snapshots are patched against (docs/LOG-FORMAT.md,
 * "Snapshot patches in delta children"): the one a new child restores, when its lines were
 * kept and the parent is in format 3; for a child resumed in place, the one its header names.
 */
async function patchBaseOf(o: ContinueOptions): Promise<PatchBase | undefined> {
  if (o.atTick < 0) return undefined;
  const range = o.recorded.delta?.base;
  if (inPlace(o)) {
    if (range === undefined) return undefined;
    const lines: { seq: number; bytes: Buffer }[] = [];
    for await (const { seq, raw } of linesUpTo(o.path, range[1]))
      if (seq >= range[0]) lines.push({ seq, bytes: Buffer.from(raw, 'utf8') });
    return lines;
  }
  // only a format-3 parent's delta children hold `snapshot-patch` lines
  if (o.layout !== 'delta' || o.recorded.chain.format !== LOG_FORMAT) return undefined;
  const snap = restorePoint(o.recorded, o.atTick);
  const lines = snap && o.recorded.snapshotLines.get(snap.seq);
  return lines && lines.length > 0 ? lines : undefined;
}

/**
 * Continues a recorded run after `atTick`: writes the recording's lines up to the end of
 * that tick to `out` unchanged, restores the nearest snapshot at or before it, reruns the
 * recorded ticks in between (checked line by line against the recording, LLM replies
 * served from it), applies the interventions, and runs on, appending to `out`. Costs
 * O(snapshot + tail), not O(atTick).
 */
export async function continueRun(o: ContinueOptions): Promise<RunResult> {
  const { header, boundaryChains, complete } = o.recorded;
  const until = o.atTick < 0 ? 0 : endOfTick(o.recorded, o.atTick);
  const snap = o.atTick < 0 || o.restored ? undefined : restorePoint(o.recorded, o.atTick);
  if (o.atTick >= 0 && o.layout === 'delta' && !complete && !inPlace(o)) {
    const message = `${o.path} is not a finished run: a delta child needs a parent that no longer changes`;
    throw new ConfigError(message, { hint: 'resume the parent first, or fork with --standalone' });
  }
  // Written beside the target and renamed at the end: a failure leaves the target as it was.
  // What a killed continuation of the same target left behind is removed first.
  removeStalePartials(o.out);
  const target = `${o.out}.partial-${process.pid}${isGzipPath(o.out) ? '.gz' : ''}`;
  const patchBase = await patchBaseOf(o);
  const captured = await writePrefix(o, target, until, snap?.seq, patchBase);
  const point = o.restored
    ? { ...o.restored, state: cloneSnapshotState(o.restored.state) }
    : snap && { state: captured as Json, seq: snap.seq, chain: boundaryChains.get(snap.seq)! };
  const known = { header, seq: until, chain: boundaryChains.get(until)! };
  const writer = new GuardedLog(LogWriter.appendTo(target, known, patchBase));
  try {
    const { onTick, onStart, onReady, services } = o;
    const restore = point?.state as EngineState | undefined;
    const tail = { from: point && { seq: point.seq, chain: point.chain }, until, writer };
    const run = { restore, onTick, onStart, onReady, ...services };
    const { atTick, interventions } = o;
    const result = await rerunRecorded(o.def, o.recorded, run, { atTick, interventions, tail });
    renameSync(target, o.out);
    return result;
  } catch (err) {
    rmSync(target, { force: true });
    throw err;
  }
}
