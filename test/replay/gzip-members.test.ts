import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LogFormatError } from '../../src/core/index.ts';
import { findGzipTail } from '../../src/replay/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('gzip-members');

/** Members of 1..40 lines each; returns the file bytes and the offset where each member ends. */
function members(count: number): { bytes: Buffer; ends: number[]; lines: number[] } {
  const parts: Buffer[] = [];
  const ends: number[] = [];
  const lines: number[] = [];
  let size = 0;
  let total = 0;
  for (let m = 0; m < count; m++) {
    const n = 1 + ((m * 17) % 40);
    const text = Array.from(
      { length: n },
      (_, i) => `{"m":${m},"i":${i},"x":${(m * 7919 + i) % 1009}}\n`,
    ).join('');
    const part = gzipSync(text);
    parts.push(part);
    size += part.length;
    total += n;
    ends.push(size);
    lines.push(total);
  }
  return { bytes: Buffer.concat(parts), ends, lines };
}

describe('findGzipTail', () => {
  // 24 members (1..40 lines each) give every cut shape; 60 cost 6x the CPU (the 64-byte
  // window's search is quadratic in the file) for the same assertions
  const { bytes, ends, lines } = members(24);

  it('finds the end of the last complete member at every cut, whatever the window', () => {
    const path = join(dir, 'members.gz');
    for (const windowBytes of [64, 1000, 1 << 20]) {
      for (let cut = 0; cut <= bytes.length; cut += 37) {
        writeFileSync(path, bytes.subarray(0, cut));
        const complete = ends.filter((end) => end <= cut);
        const end = complete.length === 0 ? 0 : complete[complete.length - 1];
        const tail = findGzipTail(path, windowBytes);
        expect(tail.end).toBe(end);
        expect(tail.tail.equals(bytes.subarray(end, cut))).toBe(true);
        expect(tail.lines).toBe(complete.length === 0 ? 0 : lines[complete.length - 1]);
      }
    }
  });

  it('reports a whole file as having no tail', () => {
    const path = join(dir, 'whole.gz');
    writeFileSync(path, bytes);
    expect(findGzipTail(path, 100)).toMatchObject({ end: bytes.length, lines: lines[lines.length - 1] });
    expect(findGzipTail(path).tail.length).toBe(0);
  });

  it('rejects data that is not a gzip member', () => {
    const path = join(dir, 'garbage.gz');
    writeFileSync(path, Buffer.concat([bytes.subarray(0, ends[3]), Buffer.from('not gzip at all')]));
    expect(() => findGzipTail(path)).toThrow(LogFormatError);
    expect(() => findGzipTail(path)).toThrow(`corrupt at byte ${ends[3]}`);
    expect(readFileSync(path).length).toBe(ends[3] + 15);
  });
});
