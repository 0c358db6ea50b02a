// The voter by discordance forks and resumes exactly: its counts (opinions, disagreeing
// neighbours) are not in snapshots, so a restored run counts them again before its first
// rate; a fork without intervention is the parent's run, at a snapshot tick and between.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { continueRun, LogWriter, readRecordedRun } from '../../../src/replay/index.ts';
import { type Intervention, runWorld } from '../../../src/world/index.ts';
import { world } from '../../../worlds/opinion/index.ts';
import { tempDir } from '../../support/temp-dir.ts';
import { checked } from '../../support/voter-checked.ts';

const dir = tempDir('voter-fork');
const parent = join(dir, 'parent.ndjson');
const params = { model: 'voter', n: 300, k: 6, beta: 0.1 };
let digest: string;

beforeAll(async () => {
  const r = await runWorld(world, {
    params,
    seed: 9,
    ticks: 40,
    snapshotEvery: 10,
    openLog: (header) => LogWriter.create(parent, header),
  });
  expect(r.ticks).toBe(40); // no consensus before: the fork ticks are inside the run
  digest = r.digest;
});

async function fork(atTick: number, interventions: Intervention[], name: string, def = world) {
  const recorded = await readRecordedRun(parent, { restoreTicks: [atTick] });
  return continueRun({
    def,
    recorded,
    path: parent,
    atTick,
    out: join(dir, `${name}.ndjson`),
    interventions,
    layout: 'standalone',
    wall: { fork: { parent, atTick, child: 0 } },
  });
}

describe('voter by discordance: forks', () => {
  it('without intervention reproduce the parent, from a snapshot and between snapshots', async () => {
    expect((await fork(20, [], 'at-snapshot')).digest).toBe(digest);
    expect((await fork(25, [], 'between')).digest).toBe(digest);
  });

  it('with opinions changed at the fork run on from counts equal to scans', async () => {
    const flip: Intervention[] = Array.from({ length: 30 }, (_, i) => ({
      type: 'agent',
      agent: i,
      events: [],
      memory: { x: 1 },
      forget: [],
    }));
    const problems: string[] = [];
    const child = await fork(20, flip, 'flipped', checked(problems) as unknown as typeof world);
    expect(problems).toEqual([]);
    expect(child.digest).not.toBe(digest);
    expect(child.ticks).toBeGreaterThan(20);
  });
});
