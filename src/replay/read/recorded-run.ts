import type { Json } from '../../core/index.ts';
import type { Intervention } from '../../world/index.ts';
import type { RecordedChain } from '../continue/verifying-log.ts';
import type { DeltaRef } from '../format/delta-ref.ts';
import type { LogHeader, LogLine } from '../format/log-format.ts';
import { SNAPSHOT_PART, type SplitInfo } from '../format/snapshot-split.ts';
import { LlmSchemaRefs } from './llm-schema-refs.ts';

/** What a recorded log holds, read and chain-verified. */
export interface RecordedRun {
  header: LogHeader;
  chain: RecordedChain;
  digest: string;
  complete: boolean;
  truncated: boolean;
  /** Recorded LLM calls (`llm` events), in log order (from the restore point on, when read for a fork). */
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
  /** Snapshot states kept while reading (see `ReadRecordedOptions.restoreTicks`), by seq. */
  snapshotStates: Map<number, Json>;
  /**
   * The lines of each kept snapshot (its parts, then its `snapshot` line), by the snapshot's
   * seq: the base a delta child's snapshots are patched against (see `snapshot-patch.ts`).
   */
  snapshotLines: Map<number, KeptLine[]>;
}

/** One line of a kept snapshot: its seq and its text or bytes (without `\n`). */
export interface KeptLine {
  seq: number;
  raw: string | Buffer;
}

/** How a read of a log ended (the parts of a `LogSummary` a {@link RecordedRun} keeps). */
export interface RecordedEnd {
  digest: string | null;
  complete: boolean;
  truncated: boolean;
  delta?: DeltaRef;
}

/**
 * Builds a {@link RecordedRun} from the verified lines of a log, given in order. A reader
 * that starts after the header (a fork reading from its restore point) passes the header,
 * then {@link RecordedRunBuilder.skipTo} the first line it reads.
 */
export class RecordedRunBuilder {
  private readonly chain: RecordedChain = { hashes: [], ticks: [], types: [], splits: new Map() };
  private readonly llmRecords: Record<string, unknown>[] = [];
  private readonly interventions = new Map<number, Intervention[]>();
  private readonly snapshots: { seq: number; tick: number }[] = [];
  private readonly boundaryChains = new Map<number, string>();
  private end: RecordedRun['end'];
  private header: LogHeader | undefined;
  private readonly keep: SnapshotKeeper;
  private schemas: LlmSchemaRefs;
  /** The parts read since the last snapshot line (kept with their snapshot when it is kept). */
  private parts: KeptLine[] = [];

  /**
   * `restoreTicks`: keep the snapshot states a continuation after each of these ticks
   * restores. `path` names the log in errors.
   */
  constructor(
    restoreTicks: readonly number[] = [],
    private readonly path = 'the log',
  ) {
    this.keep = new SnapshotKeeper(restoreTicks);
    this.schemas = new LlmSchemaRefs(path);
  }

  /** Takes the next line of the log (`hash`: its `h`, and `bytes`: its bytes, when the caller has them already). */
  add(line: LogLine, hash?: string, bytes?: Buffer): void {
    if (line.seq === 0) {
      this.header = line.event as LogHeader;
      this.chain.format = this.header.format;
    }
    if (line.type === 'schema') this.schemas.define(line.event);
    if (line.type === 'llm') {
      const { seq: _s, t: _t, type: _y, ...record } = line.event;
      this.llmRecords.push(this.schemas.resolve(record, line.line));
    }
    const boundary =
      line.seq === 0 || line.type === 'tick' || line.type === 'snapshot' || line.type === 'intervene';
    if (boundary && line.chain) this.boundaryChains.set(line.seq, line.chain);
    if (line.type === 'snapshot') {
      const split = line.event.split as SplitInfo | undefined;
      if (split) this.chain.splits?.set(line.seq - split.parts, split.chars);
      this.snapshots.push({ seq: line.seq, tick: line.t });
      const lines = [...this.parts, { seq: line.seq, raw: bytes ?? line.raw }];
      this.parts = [];
      this.keep.offer(line.seq, line.t, line.event.state as Json, lines);
    } else if (line.type === SNAPSHOT_PART) this.parts.push({ seq: line.seq, raw: bytes ?? line.raw });
    if (line.type === 'intervene') {
      const list = this.interventions.get(line.t) ?? [];
      list.push(line.event.intervention as Intervention);
      this.interventions.set(line.t, list);
    }
    if (line.type === 'end')
      this.end = { reason: String(line.event.reason), ticks: Number(line.event.ticks) };
    this.push(hash ?? detachedHash(line.raw), line.t, line.type);
  }

  /**
   * Takes a snapshot line that no continuation restores without parsing it: its seq, tick,
   * `h` and chain value.
   */
  addUnparsedSnapshot(seq: number, tick: number, hash: string, chain: string): void {
    this.parts = [];
    this.snapshots.push({ seq, tick });
    this.boundaryChains.set(seq, chain);
    this.push(hash, tick, 'snapshot');
  }

  /** Takes a `snapshot-part` line of a snapshot that no continuation restores, without parsing it. */
  addUnparsedPart(tick: number, hash: string): void {
    this.push(hash, tick, SNAPSHOT_PART);
  }

  /** Stands in for the lines before `seq` that were not read (no hash, tick or type is known for them). */
  skipTo(seq: number): void {
    // Schema lines before `seq` are not read: references to them stay unresolved.
    if (seq > this.chain.hashes.length) this.schemas = new LlmSchemaRefs(this.path, false);
    while (this.chain.hashes.length < seq) this.push('', Number.NaN, '');
  }

  /** Number of lines taken (or skipped) so far: the seq of the next line. */
  get nextSeq(): number {
    return this.chain.hashes.length;
  }

  /** The run read, or undefined when no header was given. */
  finish(end: RecordedEnd): RecordedRun | undefined {
    if (!this.header) return undefined;
    return {
      header: this.header,
      chain: this.chain,
      digest: end.digest ?? '',
      complete: end.complete,
      truncated: end.truncated,
      llmRecords: this.llmRecords,
      end: this.end,
      interventions: this.interventions,
      snapshots: this.snapshots,
      boundaryChains: this.boundaryChains,
      snapshotStates: this.keep.states(),
      snapshotLines: this.keep.lines(),
      ...(end.delta ? { delta: end.delta } : {}),
    };
  }

  private push(hash: string, tick: number, type: string): void {
    this.chain.hashes.push(hash);
    this.chain.ticks.push(tick);
    this.chain.types.push(type);
  }
}

/** Keeps, for each tick asked for, the last two snapshots at or before it. */
class SnapshotKeeper {
  private readonly kept: { seq: number; state: Json; lines: KeptLine[] }[][];

  constructor(private readonly ticks: readonly number[]) {
    this.kept = ticks.map(() => []);
  }

  offer(seq: number, tick: number, state: Json, lines: KeptLine[]): void {
    this.ticks.forEach((t, k) => {
      if (tick > t) return;
      this.kept[k].push({ seq, state, lines });
      if (this.kept[k].length > 2) this.kept[k].shift();
    });
  }

  states(): Map<number, Json> {
    return new Map(this.kept.flat().map((s) => [s.seq, s.state]));
  }

  lines(): Map<number, KeptLine[]> {
    return new Map(this.kept.flat().map((s) => [s.seq, s.lines]));
  }
}

/**
 * The line's `h` (16 hex digits before the closing `"}`), as a string that does not keep the
 * line alive: V8 makes a slice of 13 or more characters a view into its parent, so keeping
 * `raw.slice(-18, -2)` for every line would keep every line's text (3.2 GB for a log of
 * 4 Mi-character snapshot parts). Slices of 8 are copied.
 */
function detachedHash(raw: string): string {
  const h = raw.slice(-18, -2);
  return h.slice(0, 8) + h.slice(8);
}
