import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cli } from './cli.ts';
import { tempDir } from './temp-dir.ts';

/** Options of {@link ringCsv}. */
export interface RingOptions {
  /** Nodes (default 30). */
  n?: number;
  /** Each node also links to the node this far ahead (default 7); 0: a plain ring. */
  chord?: number;
  /** Rows appended after the edges (default none). */
  extra?: string;
}

/** A ring of `n` nodes, each also linked `chord` ahead, as an edge-list CSV with a header. */
export function ringCsv({ n = 30, chord = 7, extra = '' }: RingOptions = {}): string {
  const rows = ['source,target'];
  for (let i = 0; i < n; i++) {
    rows.push(`${i},${(i + 1) % n}`);
    if (chord > 0) rows.push(`${i},${(i + chord) % n}`);
  }
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
