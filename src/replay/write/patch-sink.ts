import type { Base64Text } from '../../core/index.ts';
import { chainHasher, HASH_SUFFIX_LENGTH } from '../format/chain.ts';
import { LONG_STRING, longStrings } from '../format/json-strings.ts';
import type { LineBody } from '../format/line-codec.ts';
import type { PatchBaseLine } from '../format/snapshot-patch.ts';
import { type ColumnChanges, ColumnCompare, hashColumn } from './column-compare.ts';
import { PatchBuilder, trimmed } from './patch-builder.ts';

/** A part of a line being patched: UTF-8 bytes of JSON, or a long base64 column not yet encoded. */
type Part = Buffer | Base64Text;

/**
 * The sink that writes a line as a patch against a base line, pairing their long strings as
 * docs/LOG-FORMAT.md, "Snapshot patches in delta children" says; it compares the codec's pieces
 * with the base as they come, never building the line (a column is encoded chunk by chunk and
 * the chain fed the base's bytes for unchanged chunks). Hand-written because it runs on every
 * snapshot a delta child writes: generic binary diffs look for moved blocks, which these lack.
 */
export class PatchSink {
  private readonly compare = new ColumnCompare();

  /**
   * The line of `body` chained to `prev`: its chain value, its patch against `base` when that is
   * at most `share` of the line, and the changed chunks of its columns. `known`: those of the
   * line before, reused for the same column objects (a final snapshot right after the periodic one).
   */
  patch(
    body: LineBody,
    prev: string,
    base: PatchBaseLine,
    share: number,
    known?: ReadonlyMap<Base64Text, ColumnChanges>,
  ): { chain: string; patch?: { ops: string; data: string }; changes: Map<Base64Text, ColumnChanges> } {
    base.longStrings ??= longStrings(base.bytes);
    let a = base.longStrings;
    let line = partsOf(body);
    let spans = spansOf(line);
    if (spans.at.length !== a.length) {
      line = [Buffer.concat(line.map(bytesOf))];
      spans = { at: [], part: [] };
      a = [];
    }
    const changes = new Map<Base64Text, ColumnChanges>();
    const columnAt = new Map<Base64Text, number>();
    for (let k = 0; k < a.length; k += 2) {
      const p = spans.part[k / 2];
      const part = line[p];
      if (Buffer.isBuffer(part)) continue;
      if (a[k + 1] - a[k] !== part.length) line[p] = bytesOf(part);
      else {
        changes.set(part, known?.get(part) ?? this.compare.changedChunks(base.bytes, a[k], part));
        columnAt.set(part, a[k]);
      }
    }
    const chain = chainOf(line, prev, (hash, column) =>
      hashColumn(hash, base.bytes, columnAt.get(column)!, column.length, changes.get(column)!),
    );
    const end = line[line.length - 1] as Buffer;
    end.write(chain.slice(0, 16), end.length - 18, 'latin1');
    const made = this.diff(base.bytes, a, line, spans, changes, share);
    return { chain, changes, ...(made ? { patch: made } : {}) };
  }

  /** The patch of `line` (with its `h`) against `base`, or undefined when it is over `share` of the line. */
  private diff(
    base: Buffer,
    a: number[],
    line: Part[],
    spans: Spans,
    changes: Map<Base64Text, ColumnChanges>,
    share: number,
  ): { ops: string; data: string } | undefined {
    const starts: number[] = [];
    let size = 0;
    for (const part of line) {
      starts.push(size);
      size += part.length;
    }
    const patch = new PatchBuilder(size * share);
    let aAt = 0;
    let bAt = 0;
    for (let k = 0; k <= a.length; k += 2) {
      const aEnd = k < a.length ? a[k] : base.length;
      const bEnd = k < a.length ? spans.at[k] : size;
      // the stretch before the next long string lies in one part of JSON text
      const p = line.findIndex(
        (x, i) => Buffer.isBuffer(x) && starts[i] <= bAt && bEnd <= starts[i] + x.length,
      );
      if (p === -1) return undefined;
      if (!trimmed(base, aAt, aEnd, line[p] as Buffer, bAt - starts[p], bEnd - starts[p], patch))
        return undefined;
      if (k === a.length) break;
      const [a0, a1, b0, b1] = [a[k], a[k + 1], spans.at[k], spans.at[k + 1]];
      const part = line[spans.part[k / 2]];
      const at = starts[spans.part[k / 2]];
      const ok = !Buffer.isBuffer(part)
        ? this.compare.columnInPlace(base, a0, changes.get(part)!, patch)
        : a1 - a0 === b1 - b0
          ? this.compare.columnInPlace(
              base,
              a0,
              this.compare.changedSlices(base, a0, part, b0 - at, a1 - a0),
              patch,
            )
          : trimmed(base, a0, a1, part, b0 - at, b1 - at, patch);
      if (!ok) return undefined;
      aAt = a1;
      bAt = b1;
    }
    return patch.finish();
  }
}

/** The long strings of a line given as parts: their ranges in the line, and the part holding each. */
interface Spans {
  at: number[];
  part: number[];
}

/**
 * The line of `body` as parts: its JSON text as bytes, and its long columns as they are
 * (a short one joins the text); the last part ends with `,"h":"<16 zeros>"}`, whose digits
 * are written once the chain is known.
 */
function partsOf(body: LineBody): Part[] {
  const parts: Part[] = [];
  let text = '';
  for (const piece of body.pieces) {
    if (typeof piece === 'string') text += piece;
    else if (piece.length < LONG_STRING) text += piece.toString();
    else {
      parts.push(Buffer.from(text, 'utf8'), piece);
      text = '';
    }
  }
  parts.push(Buffer.from(`${text},"h":"${'0'.repeat(16)}"}`, 'utf8'));
  return parts;
}

function spansOf(line: Part[]): Spans {
  const spans: Spans = { at: [], part: [] };
  let start = 0;
  for (let p = 0; p < line.length; start += line[p].length, p++) {
    const part = line[p];
    if (!Buffer.isBuffer(part)) {
      spans.at.push(start, start + part.length);
      spans.part.push(p);
      continue;
    }
    // a part after a column starts with the quote that closes it
    const inner = longStrings(part, p > 0 && !Buffer.isBuffer(line[p - 1]) ? 1 : 0);
    for (let k = 0; k < inner.length; k += 2) {
      spans.at.push(start + inner[k], start + inner[k + 1]);
      spans.part.push(p);
    }
  }
  return spans;
}

/** The chain value after the line whose parts (the last one ending in its `h`) are `line`; `column` feeds a column's text. */
function chainOf(
  line: Part[],
  prev: string,
  column: (hash: ReturnType<typeof chainHasher>, part: Base64Text) => void,
): string {
  const hash = chainHasher(prev);
  for (let p = 0; p < line.length; p++) {
    const part = line[p];
    if (!Buffer.isBuffer(part)) column(hash, part);
    else hash.update(p < line.length - 1 ? part : part.subarray(0, part.length - HASH_SUFFIX_LENGTH));
  }
  return hash.update('}').digest('hex');
}

function bytesOf(part: Part): Buffer {
  return Buffer.isBuffer(part) ? part : Buffer.from(part.toString(), 'latin1');
}
