import { canonicalJson, sha256Hex } from '../../src/core/index.ts';
import type { RunLog } from '../../src/world/index.ts';

/** One parsed line of a {@link CaptureLog}. */
export interface LogLine {
  seq: number;
  type: string;
  t: number;
  [field: string]: unknown;
}

/** A {@link RunLog} that keeps its lines in memory as canonical JSON, for tests. */
export class CaptureLog implements RunLog {
  readonly lines: string[] = [];
  seq = 0;
  closed = false;

  constructor(header?: Record<string, unknown>) {
    if (header) this.lines.push(canonicalJson({ type: 'header', ...header }));
  }

  append(type: string, t: number, fields: Record<string, unknown>): number {
    this.seq++;
    this.lines.push(canonicalJson({ ...fields, seq: this.seq, type, t }));
    return this.seq;
  }

  flush(): void {}

  close(): string {
    this.closed = true;
    return sha256Hex(this.lines.join('\n'));
  }

  /** The event lines (header excluded), parsed. */
  events(type?: string): LogLine[] {
    const out: LogLine[] = [];
    for (const line of this.lines) {
      const e = JSON.parse(line) as LogLine;
      if (e.type !== 'header' && (type === undefined || e.type === type)) out.push(e);
    }
    return out;
  }
}

/** Agents of the `act` lines of each tick, in log order. */
export function actsByTick(log: CaptureLog): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const e of log.events('act')) {
    const list = out.get(e.t) ?? [];
    list.push(e.agent as number);
    out.set(e.t, list);
  }
  return out;
}
