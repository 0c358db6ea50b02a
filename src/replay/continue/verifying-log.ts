import { DivergenceError } from '../../core/index.ts';
import type { RunLog } from '../../world/index.ts';
import { LineCodec, lineText } from '../format/line-codec.ts';
import { LOG_FORMAT, type LogFormat } from '../format/log-format.ts';
import { SNAPSHOT_PART, splitSnapshotLines } from '../format/snapshot-split.ts';
import type { RecordedChain } from '../read/recorded-run.ts';

/** Where a verified rerun starts (after a recorded line, a snapshot, continuing its chain) and, for a continuation, the seq up to which it checks and the writer that takes every later line. */
export interface VerifyingTail {
  from?: { seq: number; chain: string };
  until?: number;
  writer?: RunLog;
}

const EDITED = 'the log was edited, or the world or engine behaves differently from the run that wrote it';

/**
 * A {@link RunLog} that writes nothing: it encodes each line of a rerun as the log writer
 * would and compares its chained hash with the recorded one, so the first event that differs
 * stops the rerun with a {@link DivergenceError} naming its seq and tick.
 */
export class VerifyingLog implements RunLog {
  private readonly encoder = new LineCodec();
  private chain: string;
  seq = 0;
  readonly format: LogFormat;

  constructor(
    header: Record<string, unknown>,
    private readonly recorded: RecordedChain,
    private readonly tail: VerifyingTail = {},
  ) {
    this.format = recorded.format ?? LOG_FORMAT;
    const line = this.encoder.encode({ ...header, type: 'header', seq: 0, t: 0, format: this.format }, null);
    this.chain = tail.from?.chain ?? line.chain;
    this.seq = tail.from?.seq ?? 0;
    const hint = 'the header was edited, or the world definition changed its parameters';
    if (line.chain.slice(0, 16) !== recorded.hashes[0])
      throw diverged('the rerun does not reproduce the log header (seq 0, tick 0)', 0, 0, hint);
  }

  /** The chain value after the last recorded line checked (lines handed to `writer` do not count). */
  get checkedChain(): string {
    return this.chain;
  }

  append(type: string, t: number, fields: Record<string, unknown>): number {
    const seq = this.seq + 1;
    const { writer, until = 0 } = this.tail;
    if (writer && seq > until) {
      const at = `the continued log is at seq ${writer.seq}, expected ${this.seq}`;
      if (writer.seq !== this.seq) throw diverged(at, seq, t, EDITED);
      this.seq = writer.append(type, t, fields);
      return this.seq;
    }
    const chars = type === 'snapshot' ? this.recorded.splits?.get(seq) : undefined;
    if (chars !== undefined && this.recorded.types[seq] === SNAPSHOT_PART) {
      // split as the recording was (its part size), each line checked like any other
      for (const line of splitSnapshotLines(fields, chars, seq)) this.check(line.type, t, line.fields);
      return this.seq;
    }
    return this.check(type, t, fields);
  }

  private check(type: string, t: number, fields: Record<string, unknown>): number {
    const seq = this.seq + 1;
    const line = lineText(this.encoder.event(type, t, seq, fields), this.chain);
    const { hashes, ticks, types } = this.recorded;
    if (hashes[seq] === undefined) {
      const last = hashes.length - 1;
      const message = `the log ends at seq ${last} (tick ${ticks[last]}) but the rerun goes on with seq ${seq} (tick ${t}, ${type})`;
      const hint = 'the log is incomplete: the run was interrupted or the file was truncated';
      throw diverged(message, seq, t, hint);
    }
    if (line.chain.slice(0, 16) !== hashes[seq]) {
      const message = `the rerun diverges from the log at seq ${seq} (tick ${ticks[seq]}): the log has a "${types[seq]}" event, the rerun produced a different "${type}" event`;
      throw diverged(message, seq, ticks[seq], EDITED);
    }
    this.chain = line.chain;
    this.seq = seq;
    return seq;
  }

  flush(): void {
    this.tail.writer?.flush();
  }

  close(): string {
    if (this.tail.writer) return this.tail.writer.close();
    const last = this.recorded.hashes.length - 1;
    const message = `the rerun ended at seq ${this.seq} but the log goes on to seq ${last}`;
    const [next, hint] = [this.seq + 1, 'the log has events the rerun does not produce'];
    if (this.seq < last) throw diverged(message, next, this.recorded.ticks[next], hint);
    return this.chain;
  }
}

function diverged(message: string, seq: number, tick: number, hint: string): DivergenceError {
  return new DivergenceError(message, { seq, tick }, { hint });
}
