import type { Json } from '../../core/index.ts';
import type { Intervention } from '../../world/index.ts';
import type { DeltaRef } from '../format/delta-ref.ts';
import { type LogFormat, type LogHeader, type LogLine, logError } from '../format/log-format.ts';
import { dropParentIndex } from '../format/log-index.ts';
import type { PatchBaseLine } from '../format/snapshot-patch.ts';
import { SNAPSHOT_PART, type SplitInfo } from '../format/snapshot-split.ts';
import { type LogSummary, StaleIndex } from './line-reader.ts';
import { isUnparsed, type ParseRule } from './line-verifier.ts';
import { LlmSchemaRefs } from './llm-schema-refs.ts';
import { readHeader, readLog } from './read-log.ts';

/** The recorded lines a rerun is checked against: the `h`, tick and type of each, by seq (index 0 = header). */
export interface RecordedChain {
  hashes: string[];
  ticks: number[];
  types: string[];
  /** Split snapshots: the part size, by the seq of their first `snapshot-part` line. */
  splits?: Map<number, number>;
  /** The recorded log's format (default: the format new logs are written in): a rerun writes in it. */
  format?: LogFormat;
}

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
  /** Snapshot states kept while reading (see `restoreTicks` of {@link readRecordedRun}), by seq. */
  snapshotStates: Map<number, Json>;
  /** The lines of each kept snapshot (its parts, then its `snapshot` line), by its seq: a delta child's patch base. */
  snapshotLines: Map<number, PatchBaseLine[]>;
}

/**
 * Reads a log for a rerun or a continuation (`replay --verify`, `resume`, `fork`, `inspect`):
 * each line's hash is checked over its bytes and kept for the rerun's check, and the snapshot
 * lines no continuation restores are not parsed (a rerun writes them again and proves their
 * bytes). `restoreTicks`: keep the states of the snapshots a continuation after each of these
 * ticks restores (the last two at or before each); a finished plain log is then read from the
 * earliest (`readLog`'s `from`) and, for a run without an LLM, only up to the ticks asked for.
 *
 * @throws LogFormatError as `readLog`.
 */
export async function readRecordedRun(path: string, opts: { restoreTicks?: readonly number[] } = {}) {
  const ticks = opts.restoreTicks ?? [];
  const from = ticks.length > 0 ? Math.min(...ticks) : undefined;
  // a continuation of an LLM run replays the recorded replies after its tick too
  const to =
    from === undefined || (await readHeader(path)).llm !== undefined ? undefined : Math.max(...ticks);
  const read = async (): Promise<RecordedRun> => {
    const builder = new RecordedRunBuilder(ticks, path);
    const lines = readLog(path, { verify: 'chain', from, to, parse: builder.parse });
    for (let step = await lines.next(); ; step = await lines.next()) {
      if (step.done) return builder.finish(step.value);
      builder.add(step.value);
    }
  };
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof StaleIndex)) throw err;
    // the file changed under an unchanged size, mtime and inode: its index is built again
    dropParentIndex(path);
    return read();
  }
}

/** Snapshot lines shorter than this are always parsed (a split snapshot's own line says how it was split). */
const SMALL_SNAPSHOT_LINE = 1 << 16;

/** Builds a {@link RecordedRun} from the verified lines of a log, given in order (lines not read stand without hash, tick or type). */
export class RecordedRunBuilder {
  private readonly chain: RecordedChain = { hashes: [], ticks: [], types: [], splits: new Map() };
  private readonly llmRecords: Record<string, unknown>[] = [];
  private readonly interventions = new Map<number, Intervention[]>();
  private readonly snapshots: { seq: number; tick: number }[] = [];
  private readonly boundaryChains = new Map<number, string>();
  private end: RecordedRun['end'];
  private header: LogHeader | undefined;
  /** For each tick asked for, the last two snapshots at or before it. */
  private readonly kept: { seq: number; state: Json; lines: PatchBaseLine[] }[][];
  /** The last tick a kept snapshot may belong to. */
  private readonly lastTick: number;
  private schemas: LlmSchemaRefs;
  /** The parts read since the last snapshot line (kept with their snapshot when it is kept). */
  private parts: PatchBaseLine[] = [];

  /** `restoreTicks`: keep the snapshot states a continuation after each of these ticks restores. `path` names the log in errors. */
  constructor(
    private readonly restoreTicks: readonly number[] = [],
    private readonly path = 'the log',
  ) {
    this.kept = restoreTicks.map(() => []);
    this.schemas = new LlmSchemaRefs(path);
    this.lastTick = restoreTicks.length > 0 ? Math.max(...restoreTicks) : Number.NEGATIVE_INFINITY;
  }

  /** The snapshot lines this builder needs parsed: those a kept snapshot may be, and small ones. */
  readonly parse: ParseRule = (l) =>
    l.t <= this.lastTick || (l.type === 'snapshot' && l.size < SMALL_SNAPSHOT_LINE);

  /** Takes the next line of the log (read with a chain: `readLog` verifying). */
  add(line: LogLine): void {
    const { seq, t, type, event } = line;
    const hashes = this.chain.hashes;
    // a read from an index goes from the header to its restore point: the lines between are not known
    if (seq > hashes.length && this.header) {
      this.schemas = new LlmSchemaRefs(this.path, false); // references to schema lines not read stay unresolved
      while (hashes.length < seq) this.push('', Number.NaN, '');
    }
    const boundary = seq === 0 || type === 'tick' || type === 'snapshot' || type === 'intervene';
    if (boundary) this.boundaryChains.set(seq, line.chain as string);
    if (type === 'snapshot') this.snapshots.push({ seq, tick: t });
    this.push((line.chain as string).slice(0, 16), t, type);
    if (isUnparsed(line)) {
      if (type === 'snapshot') this.parts = [];
      return;
    }
    if (seq === 0) {
      this.header = event as LogHeader;
      this.chain.format = this.header.format;
    }
    if (type === 'schema') this.schemas.define(event);
    if (type === 'llm') {
      const { seq: _s, t: _t, type: _y, ...record } = event;
      this.llmRecords.push(this.schemas.resolve(record, line.line));
    }
    if (type === SNAPSHOT_PART) this.parts.push({ seq, bytes: bytesOf(line) });
    if (type === 'snapshot') {
      const split = event.split as SplitInfo | undefined;
      if (split) this.chain.splits?.set(seq - split.parts, split.chars);
      const lines = [...this.parts, { seq, bytes: bytesOf(line), longStrings: line.longStrings }];
      this.parts = [];
      this.offer(seq, t, event.state as Json, lines);
    }
    if (type === 'intervene')
      this.interventions.set(t, [...(this.interventions.get(t) ?? []), event.intervention as Intervention]);
    if (type === 'end') this.end = { reason: String(event.reason), ticks: Number(event.ticks) };
  }

  /** The run read. */
  finish(summary: Pick<LogSummary, 'digest' | 'complete' | 'truncated' | 'delta'>): RecordedRun {
    const { header, chain, llmRecords, interventions, snapshots, boundaryChains, end } = this;
    if (!header) throw logError(`${this.path} holds no header`);
    const { complete, truncated, delta } = summary;
    const kept = this.kept.flat();
    return {
      ...{ header, chain, digest: summary.digest ?? '', complete, truncated, llmRecords, end },
      ...{ interventions, snapshots, boundaryChains, ...(delta ? { delta } : {}) },
      snapshotStates: new Map(kept.map((s) => [s.seq, s.state])),
      snapshotLines: new Map(kept.map((s) => [s.seq, s.lines])),
    };
  }

  private push(hash: string, tick: number, type: string): void {
    this.chain.hashes.push(hash);
    this.chain.ticks.push(tick);
    this.chain.types.push(type);
  }

  /** Keeps the snapshot for each tick asked for at or after its tick (the last two there). */
  private offer(seq: number, tick: number, state: Json, lines: PatchBaseLine[]): void {
    this.restoreTicks.forEach((at, k) => {
      if (tick > at) return;
      this.kept[k].push({ seq, state, lines });
      if (this.kept[k].length > 2) this.kept[k].shift();
    });
  }
}

/** The bytes of a kept line: as read, or its text's. */
function bytesOf(line: LogLine): Buffer {
  return line.bytes ?? Buffer.from(line.raw, 'utf8');
}
