// Distributed sweeps against a real nats-server (JetStream on), started here on a free
// loopback port with a temporary store (.ci/run installs nats-server when it is missing; without it those cases are skipped).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { has, NATS_SERVER } from '../support/tools.ts';
import { freePort, startNats } from './nats-server.ts';

const nats = has(NATS_SERVER, 'sweeps over NATS JetStream');

const dir = tempDir('nats');
const SWEEP = [
  'rumor',
  '--grid',
  'p=0.1,0.3',
  '--set',
  'n=200',
  '--set',
  'model=independent-cascade',
  '--replicates',
  '3',
  '--seed',
  '5',
  '--ticks',
  '20',
  '--json',
];
let server: ChildProcess;
let url = '';
const workers: ChildProcess[] = [];

describe.runIf(nats)('sweep over NATS JetStream', () => {
  beforeAll(async () => {
    ({ url, server } = await startNats(join(dir, 'store')));
    for (const k of [1, 2])
      void cli(['worker', '--queue', url, '--logs', join(dir, `logs-${k}`), '--quiet'], {
        timeoutMs: 300_000,
        longLived: true,
        onSpawn: (child) => workers.push(child),
      });
  });

  afterAll(() => {
    for (const w of workers) w.kill('SIGKILL');
    server?.kill('SIGKILL');
  });

  it('with 2 workers gives the table of the local pool, digests included', async () => {
    const [local, queued] = await Promise.all([
      cli(['sweep', ...SWEEP, '--out', join(dir, 'local'), '--workers', '1'], { timeoutMs: 120_000 }),
      cli(['sweep', ...SWEEP, '--out', join(dir, 'queued'), '--queue', url], { timeoutMs: 120_000 }),
    ]);
    expect(local.code, local.stderr).toBe(0);
    expect(queued.code, queued.stderr).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ runs: 6, ran: 6, failed: 0 });
    const table = (d: string) => readFileSync(join(dir, d, 'results.csv'), 'utf8');
    expect(table('queued')).toBe(table('local'));
  });

  it('sends a malformed spec to grapevine.dead with the reason, and the workers go on', async () => {
    const nc = await connect({ servers: url });
    const dead = nc.subscribe('grapevine.dead', { max: 1 });
    await jetstream(nc).publish('grapevine.runs.bogus', '{"sweep":"bogus","index":"zero"}');
    let letter: { reason: string; data: string } | undefined;
    for await (const m of dead) letter = m.json();
    await nc.close();
    expect(letter?.reason).toMatch(/malformed: .*(index|id)/);
    expect(letter?.data).toContain('"index":"zero"');
    const again = await cli([
      'sweep',
      ...SWEEP,
      '--replicates',
      '1',
      '--out',
      join(dir, 'after'),
      '--queue',
      url,
    ]);
    expect(again.code, again.stderr).toBe(0);
  });
});

describe('sweep --queue without a server', () => {
  it('an unreachable queue exits 2 with one line', async () => {
    const port = await freePort();
    const r = await cli([
      'sweep',
      ...SWEEP,
      '--out',
      join(dir, 'never'),
      '--queue',
      `nats://127.0.0.1:${port}`,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^grapevine: cannot reach the queue at nats:\/\/127\.0\.0\.1:\d+/);
    expect(hasStack(r.stderr)).toBe(false);
  });
});
