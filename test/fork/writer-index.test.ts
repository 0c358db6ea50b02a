// The log writer builds the parent's verification index while it writes (issue 17): a run
// written with `index` leaves `<log>.verified` equal to what a scan of the finished file
// builds (snapshot offsets, chain values, split snapshots, non-ASCII text before them),
// the log's bytes are those of a run without it, and an unfinished or gzip log gets none.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadParentIndex } from '../../src/replay/format/log-index.ts';
import { LogWriter, parentIndexPath, readRecordedRun } from '../../src/replay/index.ts';
import { buildIndex } from '../../src/replay/read/read-log.ts';
import { runWorld } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const def = world;
const dir = tempDir('writer-index');
const BOUND = 'GRAPEVINE_LOG_LINE_BOUND';

function run(path: string, index: boolean, ticks = 30) {
  return runWorld(def, {
    params: { n: 300 },
    seed: 5,
    ticks,
    snapshotEvery: 10,
    level: 'full',
    openLog: (header) =>
      LogWriter.create(path, { ...header, wall: { note: 'é — ünïcode before the snapshots' } }, { index }),
  });
}

afterEach(() => {
  delete process.env[BOUND];
});

describe('the writer emits the verification index of a finished plain log', () => {
  it('equal to the scan of the file, with the log bytes unchanged, and a fork reads it warm', async () => {
    const withIndex = join(dir, 'indexed.ndjson');
    const without = join(dir, 'plain.ndjson');
    const a = await run(withIndex, true);
    const b = await run(without, false);
    expect(a.digest).toBe(b.digest);
    expect(readFileSync(withIndex)).toEqual(readFileSync(without));
    expect(existsSync(parentIndexPath(without))).toBe(false);
    const written = loadParentIndex(withIndex);
    expect(written).toBeDefined();
    expect(written).toEqual(await buildIndex(withIndex));
    expect(written?.snapshots.length).toBeGreaterThanOrEqual(3);
    expect(written?.snapshots.at(-1)?.final).toBe(true);
    const recorded = await readRecordedRun(withIndex, { restoreTicks: [15] });
    expect(recorded.digest).toBe(a.digest);
    expect(recorded.chain.hashes[1]).toBe(''); // read from the snapshot at 10 on, not scanned
  });

  it('with snapshots split into parts (the index points at the snapshot line after its parts)', async () => {
    process.env[BOUND] = '4096';
    const path = join(dir, 'split.ndjson');
    await run(path, true, 20);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('"type":"snapshot-part"');
    const written = loadParentIndex(path);
    expect(written).toEqual(await buildIndex(path));
  });

  it('byte offsets after non-ASCII text in the same write', async () => {
    const path = join(dir, 'hand.ndjson');
    const w = LogWriter.create(path, { world: { id: 'hand' } }, { index: true });
    for (let t = 1; t <= 3; t++) {
      w.append('note', t, { text: 'ünïcödé '.repeat(t) });
      w.append('tick', t, {});
      w.append('snapshot', t, { state: { t, name: 'é' } });
    }
    w.append('snapshot', 3, { state: { last: true } });
    w.append('end', 3, {});
    w.close();
    const written = loadParentIndex(path);
    expect(written?.snapshots.map((s) => s.offset)).toEqual(
      (await buildIndex(path))?.snapshots.map((s) => s.offset),
    );
    expect(written).toEqual(await buildIndex(path));
  });

  it('no index for a run that did not finish, nor for a gzip log', async () => {
    const cut = join(dir, 'cut.ndjson');
    const w = LogWriter.create(cut, { world: { id: 'x' } }, { index: true });
    w.append('tick', 0, {});
    w.close();
    expect(existsSync(parentIndexPath(cut))).toBe(false);
    const gz = join(dir, 'run.ndjson.gz');
    await run(gz, true, 12);
    expect(existsSync(parentIndexPath(gz))).toBe(false);
    rmSync(gz);
  });
});
