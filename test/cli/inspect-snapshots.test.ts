// `grapevine inspect` restores the nearest snapshot at or before the asked tick and reruns
// from there. At a snapshot tick (and at the final tick, where every run writes one) nothing
// is rerun: the state must still be the one a replay from tick 0 reaches at that tick.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentSnapshot } from '../../src/agent/index.ts';
import { runWorld } from '../../src/world/index.ts';
import { world as rumor } from '../../worlds/rumor/index.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { lines } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const log = join(tempDir('inspect-snapshots'), 'run.ndjson');
let header: Record<string, unknown>;
let snapshotTicks: number[];

beforeAll(async () => {
  const r = await cliChecked([
    'run',
    'rumor',
    ...['--set', 'n=400', '--set', 'model=maki-thompson', '--seed', '4'],
    ...['--ticks', '23', '--snapshot-every', '5', '--out', log, '--quiet'],
  ]);
  expect(r.code, r.stderr).toBe(0);
  const events = lines(log).map((l) => JSON.parse(l));
  header = events[0];
  snapshotTicks = events.filter((e) => e.type === 'snapshot').map((e) => e.t);
}, 60_000);

/** Every agent's statechart value and memory at the end of `tick`, by a run from tick 0. */
async function fromTickZero(tick: number): Promise<{ state: unknown; memory: unknown }[]> {
  let taken: AgentSnapshot[] = [];
  await runWorld(rumor, {
    params: header.params as Record<string, unknown>,
    seed: header.seed as number,
    ticks: tick,
    onTick: (t, _max, view) => {
      if (t === tick) taken = Array.from({ length: view.size }, (_, i) => view.executor.snapshot(i));
    },
  });
  return taken.map((s) => ({ state: s.value, memory: s.context.mem }));
}

describe('inspect at snapshot ticks', () => {
  it('the run wrote snapshots every 5 ticks and one at its last tick', () => {
    const last = snapshotTicks.at(-1)!;
    const every5 = Array.from({ length: Math.floor(last / 5) }, (_, k) => 5 * (k + 1));
    expect(snapshotTicks).toEqual(last % 5 === 0 ? every5 : [...every5, last]);
    expect(snapshotTicks.length).toBeGreaterThanOrEqual(3);
  });

  it('at every snapshot tick and at the final tick, equals a replay from tick 0 at that tick', async () => {
    for (const tick of snapshotTicks) {
      const r = await cliChecked(['inspect', log, '--agent', 'all', '--at', String(tick), '--json']);
      expect(r.code, r.stderr).toBe(0);
      const shown = JSON.parse(r.stdout) as { tick: number; agents: { state: unknown; memory: unknown }[] };
      expect(shown.tick).toBe(tick);
      const expected = await fromTickZero(tick);
      expect(shown.agents.map((a) => ({ state: a.state, memory: a.memory }))).toEqual(expected);
      expect(shown.agents.every((a) => a.state !== undefined && a.memory !== undefined)).toBe(true);
    }
  }, 120_000);

  it('prints the state and memory of one agent at a snapshot tick, never undefined', async () => {
    const r = await cliChecked(['inspect', log, '--agent', '0', '--at', String(snapshotTicks[1])]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^state {2}\{"life":"idle","fact":"\w+","rumor":"\w+"\}$/m);
    expect(r.stdout).not.toContain('undefined');
  });
});
