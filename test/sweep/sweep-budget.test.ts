// `sweep --budget-tokens`: a budget for the whole sweep of a world that needs an LLM (the
// shipped local server, real HTTP). The sweep stops starting runs once it is spent, a run
// it stops mid-way is not kept, the finished ones are, and a rerun does the rest.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { has, NATS_SERVER } from '../support/tools.ts';
import { startNats } from './nats-server.ts';

const nats = has(NATS_SERVER, 'a queue worker with a budget');

const dir = tempDir('sweep-budget');
/** 2 points × 1 replicate of a 5-agent town square, 2 ticks (about 4000 tokens a run). */
const SWEEP = ['sweep', 'town-square', '--grid', 'temperature=0.2,0.9', '--set', 'agents=5', '--ticks', '2'];
const ARGS = [...SWEEP, '--seed', '4', '--workers', '1', '--json'];
const table = (out: string) => readFileSync(join(dir, out, 'results.csv'), 'utf8');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('grapevine sweep --budget-tokens', () => {
  it('stops cleanly when the budget is spent: finished runs kept, the rest done by a rerun', async () => {
    const [cut, whole] = await Promise.all([
      cli([...ARGS, '--out', join(dir, 'cut'), '--budget-tokens', '6000'], { timeoutMs: 120_000 }),
      cli([...ARGS, '--out', join(dir, 'whole')], { timeoutMs: 120_000 }),
    ]);
    expect(whole.code, whole.stderr).toBe(0);
    // the first run (about 4000 tokens) finishes; the second is given what is left and stops
    expect(cut.code, cut.stderr).toBe(1);
    expect(JSON.parse(cut.stdout)).toMatchObject({ runs: 2, ran: 1, failed: 0, stopped: 1 });
    expect(cut.stderr).toMatch(
      /^grapevine: the sweep's LLM budget is spent \(\d+ tokens.*\): 1 of 2 runs not done; rerun the same sweep to do them\n$/,
    );
    expect(hasStack(cut.stderr)).toBe(false);
    expect(existsSync(join(dir, 'cut', 'runs', 'p0-r0.ndjson'))).toBe(true);
    expect(existsSync(join(dir, 'cut', 'runs', 'p1-r0.ndjson'))).toBe(false);
    expect(table('cut').trim().split('\n')).toHaveLength(2);

    const resumed = await cli([...ARGS, '--out', join(dir, 'cut')], { timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runs: 2, ran: 1, reused: 1, failed: 0 });
    expect(table('cut')).toBe(table('whole'));
  }, 300_000);

  it.runIf(nats)(
    'a queue worker with a budget stops taking runs once spent; its stopped run goes to another worker',
    async () => {
      const nats = await startNats(join(dir, 'store'));
      children.push(nats.server);
      const worker = (name: string, ...extra: string[]) =>
        cli(['worker', '--queue', nats.url, '--logs', join(dir, name), '--ack-wait-ms', '2000', ...extra], {
          timeoutMs: 300_000,
          longLived: true,
          onSpawn: (c) => children.push(c),
        });
      const budgeted = worker('logs-a', '--budget-tokens', '6000');
      const sweep = cli(
        [...SWEEP, '--seed', '4', '--json', '--out', join(dir, 'queued'), '--queue', nats.url],
        {
          timeoutMs: 300_000,
        },
      );
      const a = await budgeted;
      expect(a.code, a.stderr).toBe(1);
      expect(a.stderr).toMatch(/grapevine: this worker's LLM budget is spent: it stopped taking runs/);
      expect(hasStack(a.stderr)).toBe(false);
      void worker('logs-b', '--quiet');
      const r = await sweep;
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ runs: 2, ran: 2, failed: 0 });
      expect(table('queued')).toBe(table('whole'));
    },
    300_000,
  );

  it('a bad budget exits 2 with one line', async () => {
    const r = await cli([...ARGS, '--out', join(dir, 'bad'), '--budget-tokens', 'many']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^grapevine: --budget-tokens must be/);
    expect(hasStack(r.stderr)).toBe(false);
  });
});
