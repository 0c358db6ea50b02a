// A fork reads its parent from the restore point (readRecordedRun, issue 17): the children
// are the same bytes as from a full read; the verification index beside the parent
// (`<log>.verified`) is trusted only while the file is unchanged, and an edit is caught
// whether the index is stale or not (a same-size edit with the mtime put back, after the
// restore point, at fork time when it lies before the next snapshot's tick line, where the
// read stops; before it, by every read of the child).
import { closeSync, existsSync, openSync, readFileSync, statSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LogFormatError } from '../../src/core/index.ts';
import { loadParentIndex } from '../../src/replay/format/log-index.ts';
import { continueRun, LogWriter, parentIndexPath, readRecordedRun, scanLog } from '../../src/replay/index.ts';
import { runWorld } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const def = world;
const dir = tempDir('parent-index');
const parent = join(dir, 'parent.ndjson');
let digest: string;
let ticks: number;

beforeAll(async () => {
  const r = await runWorld(def, {
    params: { n: 300 },
    seed: 3,
    ticks: 40,
    snapshotEvery: 10,
    openLog: (header) => LogWriter.create(parent, { ...header, wall: { note: 'test' } }),
  });
  digest = r.digest;
  ticks = r.ticks;
  expect(ticks).toBeGreaterThan(25);
});

/** Forks `path` after `at` (no intervention) from `recorded`, as a delta child; returns its bytes and digest. */
async function forkFrom(recorded: Awaited<ReturnType<typeof readRecordedRun>>, at: number, out: string) {
  const r = await continueRun({ def, recorded, path: parent, atTick: at, out, layout: 'delta' });
  return { digest: r.digest, bytes: readFileSync(out, 'utf8') };
}

/** Overwrites one byte of `path` in place, keeping its size, mtime and inode. */
function editInPlace(path: string, offset: number, byte: string): void {
  const st = statSync(path);
  const fd = openSync(path, 'r+');
  writeSync(fd, byte, offset);
  closeSync(fd);
  utimesSync(path, st.atime, st.mtime);
}

describe('readRecordedRun', () => {
  it('gives the same children as a full read, at tick 0, at a snapshot, between snapshots and at the last tick', async () => {
    for (const at of [0, 10, 17, ticks]) {
      const fast = await readRecordedRun(parent, { restoreTicks: [at] });
      const full = await readRecordedRun(parent, { restoreTicks: [at] });
      expect(fast.digest).toBe(digest);
      const a = await forkFrom(fast, at, join(dir, `fast-${at}.ndjson`));
      const b = await forkFrom(full, at, join(dir, `full-${at}.ndjson`));
      expect(a.digest).toBe(digest);
      expect(a.bytes).toBe(b.bytes);
    }
    const index = loadParentIndex(parent);
    expect(index?.digest).toBe(digest);
    const periodic = [10, 20, 30, 40].filter((t) => t <= ticks);
    expect(index?.snapshots.map((s) => s.tick)).toEqual([...periodic, ticks]);
    expect(index?.snapshots.map((s) => s.final)).toEqual([...periodic.map(() => false), true]);
    // from the cache, a fork at 27 knows nothing of the lines before the snapshot at 20
    const fast = await readRecordedRun(parent, { restoreTicks: [27] });
    expect(fast.chain.hashes.slice(1, 20).every((h) => h === '')).toBe(true);
    expect(fast.snapshots[0].tick).toBe(20);
  });

  it('an edit after the restore point, same size and mtime (the index still matches), is caught at fork time up to the next snapshot; after it, only by forks that read that far', async () => {
    const copy = join(dir, 'edited-tail.ndjson');
    writeCopy(copy);
    await readRecordedRun(copy, { restoreTicks: [12] });
    expect(existsSync(parentIndexPath(copy))).toBe(true);
    // tick 15 lies between the restore point (the snapshot at 10) and the snapshot at 20
    const text = readFileSync(copy, 'utf8');
    const at = text.indexOf('"t":15,"type":"tick"') + 5;
    editInPlace(copy, Buffer.byteLength(text.slice(0, at)), '6');
    await expect(readRecordedRun(copy, { restoreTicks: [12] })).rejects.toThrow(LogFormatError);
    await expect(readRecordedRun(copy, { restoreTicks: [12] })).rejects.toThrow(
      /edited-tail\.ndjson.*hash chain/,
    );

    // the last tick line lies after the snapshot at 20: a fork at 12 stops before it (the
    // index vouches for it, as for the lines before the restore point); a fork at the last
    // tick reads it and refuses the log
    const late = join(dir, 'edited-late.ndjson');
    writeCopy(late);
    await readRecordedRun(late, { restoreTicks: [12] });
    const end = text.lastIndexOf('"type":"tick"') - 2;
    editInPlace(late, Buffer.byteLength(text.slice(0, end)), text[end] === '1' ? '2' : '1');
    const recorded = await readRecordedRun(late, { restoreTicks: [12] });
    expect(recorded.digest).toBe(digest);
    expect(recorded.chain.ticks.at(-1)).toBe(19);
    const a = await continueRun({
      def,
      recorded,
      path: late,
      atTick: 12,
      out: join(dir, 'late-child.ndjson'),
      layout: 'delta',
    });
    expect(a.digest).toBe(digest);
    await expect(readRecordedRun(late, { restoreTicks: [ticks] })).rejects.toThrow(/edited-late\.ndjson/);
  });

  it('an edit before the restore point with the mtime put back passes the fork but not a read of the child', async () => {
    const copy = join(dir, 'edited-head.ndjson');
    writeCopy(copy);
    await readRecordedRun(copy, { restoreTicks: [32] });
    const text = readFileSync(copy, 'utf8');
    const line3 = text.split('\n').slice(0, 3).join('\n').length - 30;
    editInPlace(copy, Buffer.byteLength(text.slice(0, line3)), text[line3] === '0' ? '1' : '0');
    const recorded = await readRecordedRun(copy, { restoreTicks: [32] });
    const child = join(dir, 'edited-head-child.ndjson');
    await continueRun({ def, recorded, path: copy, atTick: 32, out: child, layout: 'delta' });
    await expect(scanLog(child)).rejects.toThrow(/parent log .*edited-head\.ndjson/);
  });

  it('an edited parent whose index is stale: grapevine fork exits 2 naming the parent', async () => {
    const copy = join(dir, 'stale.ndjson');
    writeCopy(copy);
    await readRecordedRun(copy, { restoreTicks: [15] });
    const text = readFileSync(copy, 'utf8');
    const at = text.indexOf('"type":"tick"') - 2;
    const fd = openSync(copy, 'r+');
    writeSync(fd, text[at] === '1' ? '2' : '1', Buffer.byteLength(text.slice(0, at)));
    closeSync(fd);
    utimesSync(copy, new Date(2000, 1, 1), new Date(2000, 1, 1));
    expect(loadParentIndex(copy)).toBeUndefined();
    const r = await cli(['fork', copy, '--at', '15', '--out', join(dir, 'stale-child.ndjson')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stale.ndjson');
  });
});

function writeCopy(path: string): void {
  const fd = openSync(path, 'w');
  writeSync(fd, readFileSync(parent));
  closeSync(fd);
  // a whole-second mtime, which utimes can put back exactly
  utimesSync(path, new Date(2020, 0, 1), new Date(2020, 0, 1));
}
