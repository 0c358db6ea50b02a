// `inspect` starts from the nearest snapshot (issue 15 item 20): the agents' state and
// memory at a tick are the same as when the run is replayed from tick 0 (a log of the same
// run without periodic snapshots), for several agents at once.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cliJson } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { pool } from './helpers.ts';

it('inspect --agent 1,2,3 from a snapshot equals the replay from tick 0; all agents with --json', async () => {
  const dir = tempDir('inspect-snap');
  const snap = join(dir, 'snap.ndjson');
  const plain = join(dir, 'plain.ndjson');
  const run = ['run', 'rumor', '--set', 'n=200', '--seed', '3'];
  await pool([
    () => cliJson([...run, '--snapshot-every', '10', '--out', snap]),
    () => cliJson([...run, '--out', plain]),
  ]);
  const [a, b, all] = await pool([
    () => cliJson(['inspect', snap, '--agent', '1,2,3', '--at', '14']),
    () => cliJson(['inspect', plain, '--agent', '1,2,3', '--at', '14']),
    () => cliJson(['inspect', snap, '--agent', 'all', '--at', '14']),
  ]);
  expect(a.observedFrom).toBe(10);
  expect(b.observedFrom).toBe(0);
  const states = (r: Record<string, unknown>) =>
    (r.agents as { agent: number; state: unknown; memory: unknown }[]).map(({ agent, state, memory }) => ({
      agent,
      state,
      memory,
    }));
  expect(states(a)).toEqual(states(b));
  expect(a.metrics).toEqual(b.metrics);
  expect(states(all)).toHaveLength(200);
  expect(states(all).slice(1, 4)).toEqual(states(a));
});
