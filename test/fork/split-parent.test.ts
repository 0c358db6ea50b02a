// A fork reads a parent whose snapshots are split into `snapshot-part` lines (a large
// population) from its restore point too (issue 17), instead of reading the whole log: the
// index records the tick line before the parts, the restore snapshot's parts are put back
// together, and the parts of snapshots after the fork tick are chained without parsing.
// The children are the bytes a full read gives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadParentIndex } from '../../src/replay/format/log-index.ts';
import { SNAPSHOT_PART } from '../../src/replay/format/snapshot-split.ts';
import { continueRun, LogWriter, type RecordedRun, readRecordedRun } from '../../src/replay/index.ts';
import { runWorld } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const def = world;
const dir = tempDir('split-parent');
const parent = join(dir, 'parent.ndjson');
const written = join(dir, 'written.ndjson');
const bound = process.env.GRAPEVINE_LOG_LINE_BOUND;
let digest: string;
let ticks: number;

beforeAll(async () => {
  process.env.GRAPEVINE_LOG_LINE_BOUND = '2048'; // snapshots of 300 agents split into parts of 512
  const r = await runWorld(def, {
    params: { n: 300 },
    seed: 3,
    ticks: 40,
    snapshotEvery: 10,
    openLog: (header) => LogWriter.create(parent, header),
  });
  digest = r.digest;
  ticks = r.ticks;
  // the same run with the index the writer builds while it writes
  await runWorld(def, {
    params: { n: 300 },
    seed: 3,
    ticks: 40,
    snapshotEvery: 10,
    openLog: (header) => LogWriter.create(written, header, { index: true }),
  });
  expect(ticks).toBeGreaterThan(25);
  expect(readFileSync(parent, 'utf8')).toContain(`"type":"${SNAPSHOT_PART}"`);
});

afterAll(() => {
  if (bound === undefined) delete process.env.GRAPEVINE_LOG_LINE_BOUND;
  else process.env.GRAPEVINE_LOG_LINE_BOUND = bound;
});

async function forkFrom(recorded: RecordedRun, at: number, out: string) {
  const r = await continueRun({ def, recorded, path: parent, atTick: at, out, layout: 'delta' });
  return { digest: r.digest, bytes: readFileSync(out, 'utf8') };
}

describe('readRecordedRun of a log with split snapshots', () => {
  it('reads from the restore point and gives the children of a full read', async () => {
    for (const at of [10, 17, 20, ticks]) {
      const fast = await readRecordedRun(parent, { restoreTicks: [at] });
      const full = await readRecordedRun(parent, { restoreTicks: [at] });
      const a = await forkFrom(fast, at, join(dir, `fast-${at}.ndjson`));
      const b = await forkFrom(full, at, join(dir, `full-${at}.ndjson`));
      expect(a.digest).toBe(digest);
      expect(a.bytes).toBe(b.bytes);
      // the lines before the restore point's tick line were not read (no full read fell back)
      const first = fast.chain.hashes.findIndex((h, seq) => seq > 0 && h !== '');
      expect(first).toBeGreaterThan(1);
      expect(fast.chain.types[first]).toBe('tick');
      expect(fast.chain.types[first + 1]).toBe(SNAPSHOT_PART);
    }
    const index = loadParentIndex(parent)!;
    const s = index.snapshots.find((x) => x.tick === 20)!;
    const lines = readFileSync(parent, 'utf8').split('\n');
    expect(JSON.parse(lines[s.before.seq!]).type).toBe('tick'); // the tick line, before the parts
    expect(JSON.parse(lines[s.before.seq! + 1]).type).toBe(SNAPSHOT_PART);
    expect(loadParentIndex(written)?.snapshots).toEqual(index.snapshots); // the writer's index: the same
  });
});
