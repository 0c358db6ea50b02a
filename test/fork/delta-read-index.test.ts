// Readers of a delta child read its parent only up to the fork point when the parent's
// verification index (written by the run) names the digest the child names (issue 17): the
// lines after the fork point are not read (an edit there that leaves size and mtime as
// they were goes unseen, as the index is trusted), without the index they are read and the
// edit is caught, and a parent replaced by another run (its own index, another digest) is
// refused naming it.
import { closeSync, openSync, readFileSync, statSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadParentIndex } from '../../src/replay/format/log-index.ts';
import { continueRun, dropParentIndex, LogWriter, readRecordedRun, scanLog } from '../../src/replay/index.ts';
import { runWorld } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const def = world;
const dir = tempDir('delta-read-index');
const parent = join(dir, 'parent.ndjson');
const child = join(dir, 'child.ndjson');
let digest: string;

const run = (path: string, seed: number) =>
  runWorld(def, {
    params: { n: 300 },
    seed,
    ticks: 30,
    snapshotEvery: 10,
    openLog: (header) => LogWriter.create(path, header, { index: true }),
  });

beforeAll(async () => {
  digest = (await run(parent, 3)).digest;
  // a whole-second mtime, which utimes can put back exactly (the fork's read indexes it again)
  utimesSync(parent, new Date(2020, 0, 1), new Date(2020, 0, 1));
  const recorded = await readRecordedRun(parent, { restoreTicks: [12] });
  const r = await continueRun({ def, recorded, path: parent, atTick: 12, out: child, layout: 'delta' });
  expect(r.digest).toBe(digest);
});

/** Flips one digit of the last tick line of `path`, keeping its size and mtime. */
function editTail(path: string): void {
  const st = statSync(path);
  const text = readFileSync(path, 'utf8');
  const at = text.lastIndexOf('"type":"tick"') - 2;
  const fd = openSync(path, 'r+');
  writeSync(fd, text[at] === '1' ? '2' : '1', Buffer.byteLength(text.slice(0, at)));
  closeSync(fd);
  utimesSync(path, st.atime, st.mtime);
}

describe('a delta child reads its indexed parent up to the fork point', () => {
  it('verifies the child to the parent digest; an unseen edit after the fork point, then caught without the index', async () => {
    expect(loadParentIndex(parent)?.digest).toBe(digest);
    expect((await scanLog(child)).digest).toBe(digest);
    editTail(parent);
    expect(loadParentIndex(parent)?.digest).toBe(digest); // still trusted: same size and mtime
    expect((await scanLog(child)).digest).toBe(digest);
    dropParentIndex(parent);
    await expect(scanLog(child)).rejects.toThrow(/parent log .*parent\.ndjson/);
  });

  it('a parent replaced by another run (its own index, another digest) is refused naming it', async () => {
    const other = join(dir, 'other');
    const p2 = join(other, 'parent.ndjson');
    const d2 = (await run(p2, 4)).digest;
    expect(d2).not.toBe(digest);
    const recorded = await readRecordedRun(p2, { restoreTicks: [12] });
    const c2 = join(other, 'child.ndjson');
    await continueRun({ def, recorded, path: p2, atTick: 12, out: c2, layout: 'delta' });
    await run(p2, 5); // replaced, with its index
    expect(loadParentIndex(p2)).toBeDefined();
    await expect(scanLog(c2)).rejects.toThrow(/other[\\/]parent\.ndjson/);
  });
});
