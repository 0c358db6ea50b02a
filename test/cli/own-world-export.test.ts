// A researcher's own world (docs/examples/misinformation.ts, copied to a folder outside the
// checkout) exported for analysis: its agents with their network measures, read back with
// the project's CSV parser, and a fork batch of it as one tidy table with its arms and the
// seeds its pairs share. Through the compiled CLI, as a user runs it.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RngStreams } from '../../src/core/index.ts';
import { barabasiAlbert } from '../../src/network/index.ts';
import { readTableFile } from '../../src/validity/table-file.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('own-world-export');
const run = (args: string[]) => cli(args, { cwd: dir });
const log = join(dir, 'parent.ndjson');
const N = 400;
const SEED = 11;

type Row = Record<string, string>;
const rowsOf = (path: string) => readTableFile(path, 'the export').map((r) => r.fields as Row);

beforeAll(async () => {
  copyFileSync(resolve('docs/examples/misinformation.ts'), join(dir, 'misinformation.ts'));
  const r = await run([
    'run',
    './misinformation.ts',
    '--set',
    `n=${N}`,
    '--seed',
    `${SEED}`,
    '--out',
    log,
    '--quiet',
  ]);
  expect(r.code, r.stderr).toBe(0);
}, 300_000);

describe('a user world exported for analysis', { timeout: 300_000 }, () => {
  it("agents carry the degree, clustering and PageRank of the world's network", async () => {
    const e = await run([
      'export',
      log,
      '--what',
      'agents',
      '--world',
      './misinformation.ts',
      '--out',
      'agents.csv',
    ]);
    expect(e.code, e.stderr).toBe(0);
    const rows = rowsOf(join(dir, 'agents.csv'));
    expect(rows.length).toBe(N);
    // the network the world builds from the logged parameters and seed (its stream "network")
    const net = barabasiAlbert({ n: N, m: 3 }, new RngStreams(SEED).stream('network'));
    for (const r of rows) expect(Number(r.degree), r.agent).toBe(net.degree(Number(r.agent)));
    for (const r of rows) expect(Number(r.clustering)).toBeGreaterThanOrEqual(0);
    expect(rows.some((r) => Number(r.clustering) > 0)).toBe(true);
    const ranks = rows.map((r) => Number(r.pagerank));
    expect(ranks.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 6);
    // the five hubs by degree are among the ten highest ranks
    const byDegree = [...rows].sort((a, b) => Number(b.degree) - Number(a.degree)).slice(0, 5);
    const topRanks = [...ranks].sort((a, b) => b - a).slice(0, 10);
    for (const h of byDegree) expect(topRanks).toContain(Number(h.pagerank));
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['state_misinfo', 'mem_checker']));
  });

  it('a fork batch: one row per (child, tick), its arm from the interventions, pairs on one seed', async () => {
    const batch = join(dir, 'batch');
    const f = await run([
      ...[
        'fork',
        log,
        '--at',
        '3',
        '--set',
        'alpha=1',
        '--replicates',
        '2',
        '--world',
        './misinformation.ts',
      ],
      ...['--out', batch, '--quiet'],
    ]);
    expect(f.code, f.stderr).toBe(0);
    const e = await run(['export', batch, '--out', '-']);
    expect(e.code, e.stderr).toBe(0);
    const path = join(dir, 'batch.csv');
    writeFileSync(path, e.stdout);
    const rows = rowsOf(path);
    const runs = [...new Set(rows.map((r) => r.run))];
    expect(runs.length).toBe(4);
    const ticks = new Set(rows.map((r) => r.tick));
    expect(rows.length).toBe(runs.length * ticks.size);
    const arm = (g: string) => rows.filter((r) => r.group === g);
    for (const g of ['control', 'treated']) expect(new Set(arm(g).map((r) => r.run)).size).toBe(2);
    // the seeds of the two arms are the same two: pairs share their future seed
    const seeds = (g: string) => [...new Set(arm(g).map((r) => r.seed))].sort();
    expect(seeds('treated')).toEqual(seeds('control'));
    expect(seeds('control').length).toBe(2);
    // the tick values are the children's own: each child's log, forward-filled after its end
    for (const id of runs) {
      const mine = rows.filter((r) => r.run === id);
      const lines = readFileSync(join(batch, `${id}.ndjson`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const last = lines.filter((l) => l.type === 'tick').at(-1);
      for (const r of mine.filter((x) => Number(x.tick) >= last.t))
        expect(Number(r.believers)).toBe(last.metrics.believers);
      expect(Number(mine[0].n)).toBe(N);
    }
  });
});
