// A user's continuous-time world file (docs/examples/gossip.ts, copied outside the checkout)
// declares its own rates: spreaders wake at talk + forget, unaware and bored agents never.
// Run as its author would (`grapevine sweep`, seeds of the two arms disjoint), the outcome
// distributions under `turns=async` (activation by state) and `turns=async-uniform` (every
// agent at rate 1) are the same; a copy that declares twice the rate is told apart, which
// shows the comparison has the power to see a wrong declaration.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { holm, twoSampleKs } from '../../src/stats/index.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const RUNS = 200;
let dir: string;

/** The rows of a sweep's results.csv (no field of these runs holds a comma or a quote). */
function results(folder: string): Record<string, string>[] {
  const [head, ...rows] = readFileSync(join(dir, folder, 'results.csv'), 'utf8')
    .trim()
    .split('\n');
  const names = head.split(',');
  return rows.map((row) => Object.fromEntries(row.split(',').map((v, k) => [names[k], v])));
}

async function sweep(file: string, folder: string, ...args: string[]): Promise<Record<string, string>[]> {
  const r = await cli(
    [
      'sweep',
      file,
      ...args,
      '--replicates',
      String(RUNS),
      '--set',
      'n=150',
      '--workers',
      '2',
      '--out',
      folder,
      '--quiet',
    ],
    { cwd: dir },
  );
  if (r.code !== 0) throw new Error(`grapevine sweep ${file} exited ${r.code}: ${r.stderr}`);
  return results(folder);
}

const column = (rows: Record<string, string>[], turns: string, name: string) =>
  rows.filter((r) => r['param.turns'] === turns).map((r) => Number(r[name]));

let arms: Record<string, string>[];
let doubled: Record<string, string>[];

beforeAll(async () => {
  dir = tempDir('user-rates');
  copyFileSync(resolve('docs/examples/gossip.ts'), join(dir, 'gossip.ts'));
  const source = readFileSync(join(dir, 'gossip.ts'), 'utf8');
  const wrong = source.replace('spreading: p.talk + p.forget }', 'spreading: 2 * (p.talk + p.forget) }');
  expect(wrong).not.toBe(source);
  writeFileSync(join(dir, 'gossip-doubled.ts'), wrong);
  arms = await sweep('./gossip.ts', 'arms', '--grid', 'turns=async,async-uniform');
  // the copy is type-correct, and its type check (cold: a text of its own) is not what this
  // file is about; the example's sweep above is checked, as its author runs it
  doubled = await sweep(
    './gossip-doubled.ts',
    'doubled',
    '--set',
    'turns=async',
    '--seed',
    '7',
    '--no-check',
  );
}, 1_200_000);

describe('a world file’s own rates under async', { timeout: 60_000 }, () => {
  it('give the outcome law of rate-1 activation: final reach and time to extinction, KS with Holm at 1%', () => {
    expect(arms.length).toBe(2 * RUNS);
    // every run ended by itself, and only the rate-1 arm stepped agents with nothing to do
    expect(arms.every((r) => r.reason === 'over')).toBe(true);
    expect(column(arms, 'async', 'metric.idle').every((v) => v === 0)).toBe(true);
    expect(column(arms, 'async-uniform', 'metric.idle').some((v) => v > 0)).toBe(true);
    const tests = ['metric.bored', 'ticks'].map((name) =>
      twoSampleKs(column(arms, 'async-uniform', name), column(arms, 'async', name)),
    );
    expect(holm(tests.map((t) => t.p)).every((p) => p >= 0.01)).toBe(true);
  });

  it('tell twice the declared rate apart (time to extinction halves)', () => {
    expect(doubled.length).toBe(RUNS);
    const ks = twoSampleKs(
      column(arms, 'async-uniform', 'ticks'),
      doubled.map((r) => Number(r.ticks)),
    );
    expect(ks.p).toBeLessThan(1e-4);
  });
});
