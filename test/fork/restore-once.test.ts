// Restore once, fork R times (issue 17): the children of one fork tick restore a state taken
// once (the snapshot at that tick, or the recorded ticks from the snapshot before it rerun
// once), and each child's log is byte-identical to the one forking it alone writes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RngStreams } from '../../src/core/index.ts';
import { NetworkShare, networkFromParams, type WorldNetworkParams } from '../../src/network/index.ts';
import { continueRun, LogWriter, readRecordedRun, restoreOnce } from '../../src/replay/index.ts';
import type { Intervention } from '../../src/world/index.ts';
import { runWorld } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const def = world;
const dir = tempDir('restore-once');
const parent = join(dir, 'parent.ndjson');
const params = { n: 200, model: 'independent-cascade', p: 0.5, network: 'watts-strogatz', k: 6, beta: 0.01 };
const reseed = (seed: number): Intervention[] => [{ type: 'reseed', seed } as Intervention];
const tell: Intervention = {
  type: 'message',
  from: -1,
  to: 'all',
  kind: 'tell',
  item: 'rumor',
} as Intervention;
let digest: string;

beforeAll(async () => {
  const r = await runWorld(def, {
    params,
    seed: 5,
    ticks: 16,
    snapshotEvery: 6,
    openLog: (header) => LogWriter.create(parent, header),
  });
  expect(r.ticks).toBe(16); // the fork ticks below are inside the run
  digest = r.digest;
});

/** Writes each child alone (continueRun) and from one shared restore; returns the shared kind. */
async function compare(atTick: number, children: Intervention[][], layout: 'delta' | 'standalone') {
  const recorded = await readRecordedRun(parent, { restoreTicks: [atTick] });
  const factory = await restoreOnce(def, recorded, parent, atTick);
  const digests: string[] = [];
  for (const [k, interventions] of children.entries()) {
    const alone = join(dir, `alone-${atTick}-${layout}-${k}.ndjson`);
    const shared = join(dir, `shared-${atTick}-${layout}-${k}.ndjson`);
    const wall = { fork: { parent, atTick, child: k } };
    const a = await continueRun({
      def,
      recorded,
      path: parent,
      atTick,
      out: alone,
      interventions,
      layout,
      wall,
    });
    const b = await factory.fork({ out: shared, interventions, layout, wall });
    expect(b.digest).toBe(a.digest);
    expect(readFileSync(shared)).toEqual(readFileSync(alone));
    digests.push(b.digest);
  }
  return { shared: factory.shared, digests };
}

describe('restoreOnce', () => {
  it('between snapshots: reruns the recorded tail once; every child equals its fork alone', async () => {
    const { shared, digests } = await compare(
      13,
      [[], reseed(11), reseed(12), [tell, ...reseed(11)]],
      'delta',
    );
    expect(shared).toBe('rerun');
    expect(digests[0]).toBe(digest); // no intervention: the parent's run
    expect(new Set(digests).size).toBe(4); // the children differ from each other
  });

  it('standalone children: at a snapshot tick (shared as it is) and between snapshots', async () => {
    expect((await compare(12, [reseed(3), reseed(4)], 'standalone')).shared).toBe('snapshot');
    expect((await compare(14, [reseed(3), []], 'standalone')).shared).toBe('rerun');
  });
});

describe('NetworkShare', () => {
  it('builds a network once per spec and stream state, and leaves the stream where building it would', async () => {
    const p = { network: 'watts-strogatz', n: 500, k: 6, beta: 0.2, m: 2 } as WorldNetworkParams;
    const alone = new RngStreams(9).stream('network');
    const plain = networkFromParams(p, alone).topology;
    const share = new NetworkShare();
    const [a, b, c] = await share.during(async () => {
      const first = new RngStreams(9).stream('network');
      const again = new RngStreams(9).stream('network');
      const other = new RngStreams(10).stream('network');
      const built = [p, p, p].map((q, k) => networkFromParams(q, [first, again, other][k]).topology);
      expect(again.state()).toEqual(alone.state()); // reused: the stream is moved on as by building
      expect(again.next()).toBe(alone.next());
      return built;
    });
    expect(b).toBe(a); // the same object, not built again
    expect(c).not.toBe(a); // another seed: built
    const neighbours = (t: typeof a) => {
      const out: number[] = [];
      for (let i = 0; i < t.size; i++) t.forEachNeighbour(i, (j) => out.push(i, j));
      return out.join();
    };
    expect(neighbours(a)).toBe(neighbours(plain));
    expect(networkFromParams(p, new RngStreams(9).stream('network')).topology).not.toBe(a); // inactive outside
  });
});
