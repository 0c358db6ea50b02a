import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { tempDir } from '../fork/helpers.ts';
import { cli } from './run-cli.ts';

/** A 30-node ring with chords, as an edge-list CSV (with `extra` rows appended). */
export function ringCsv(extra = ''): string {
  const rows = ['source,target'];
  for (let i = 0; i < 30; i++) rows.push(`${i},${(i + 1) % 30}`, `${i},${(i + 7) % 30}`);
  return `${rows.join('\n')}\n${extra}`;
}

/**
 * Runs the rumour world in folder `a` of a new temporary folder, on `a/edges.csv` named by a
 * relative `networkFile`, writing `a/run.ndjson`; `b` is an empty sibling folder.
 */
export async function runOnRelativeNetworkFile(name: string): Promise<{ a: string; b: string }> {
  const root = tempDir(name);
  const [a, b] = [join(root, 'a'), join(root, 'b')];
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(join(a, 'edges.csv'), ringCsv());
  const set = ['n=30', 'network=csv', 'networkFile=edges.csv', 'spreaders=2', 'insiders=2'];
  const run = await cli(
    ['run', 'rumor', ...set.flatMap((s) => ['--set', s]), '--ticks', '4', '--out', 'run.ndjson', '--quiet'],
    { cwd: a, timeoutMs: 60_000 },
  );
  expect(run.code, run.stderr).toBe(0);
  return { a, b };
}
