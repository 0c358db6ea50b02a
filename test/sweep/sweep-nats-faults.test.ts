// Faults of a distributed sweep against a real nats-server (JetStream, file storage) started
// here on a free loopback port: a worker SIGKILLed mid-run, and the server killed and
// restarted mid-sweep on the same store folder. Each must still give every run exactly once
// and the local pool's table.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { has, NATS_SERVER } from '../support/tools.ts';
import { freePort, startNats } from './nats-server.ts';

const nats = has(NATS_SERVER, 'sweeps over NATS JetStream with faults');

const dir = tempDir('nats-faults');
const sweepArgs = (seed: number) => [
  'sweep',
  'rumor',
  '--grid',
  'p=0.1,0.3',
  '--set',
  'n=3000',
  '--set',
  'model=independent-cascade',
  '--replicates',
  '3',
  '--seed',
  String(seed),
  '--ticks',
  '40',
  '--json',
];
let port = 0;
let url = '';
let server: ChildProcess | undefined;
const children: ChildProcess[] = [];
const table = (d: string) => readFileSync(join(dir, d, 'results.csv'), 'utf8');

async function startServer(): Promise<void> {
  ({ server } = await startNats(join(dir, 'store'), port));
}

async function stopServer(): Promise<void> {
  const s = server;
  if (!s || s.exitCode !== null || s.signalCode !== null) return;
  await new Promise<void>((done) => {
    s.once('exit', () => done());
    s.kill('SIGKILL');
  });
}

/** A worker (short ack wait, one run at once) and a promise of its first "started" line. */
function worker(name: string): {
  child: Promise<ChildProcess>;
  started: Promise<string>;
  stderr: () => string;
} {
  let text = '';
  let onStart: (id: string) => void = () => {};
  const started = new Promise<string>((done) => {
    onStart = done;
  });
  let spawned: (c: ChildProcess) => void = () => {};
  const child = new Promise<ChildProcess>((done) => {
    spawned = done;
  });
  const args = ['worker', '--queue', url, '--logs', join(dir, `logs-${name}`), '--ack-wait-ms', '1000'];
  void cli(args, {
    timeoutMs: 300_000,
    longLived: true,
    onSpawn: (c) => {
      children.push(c);
      c.stderr?.on('data', (d: Buffer | string) => {
        text += String(d);
        const m = / (p\d+-r\d+) started/.exec(text);
        if (m) onStart(m[1]);
      });
      spawned(c);
    },
  });
  return { child, started, stderr: () => text };
}

/** Waits until every spec on the runs stream has been acked (the work queue is empty). */
async function queueDrained(): Promise<number> {
  const nc = await connect({ servers: url });
  const jsm = await jetstreamManager(nc);
  let left = -1;
  for (let i = 0; i < 600 && left !== 0; i++) {
    left = (await jsm.streams.info('GRAPEVINE_RUNS')).state.messages;
    if (left) await new Promise((r) => setTimeout(r, 100));
  }
  await nc.close();
  return left;
}

describe.runIf(nats)('sweep over NATS JetStream, with faults', () => {
  beforeAll(async () => {
    port = await freePort();
    url = `nats://127.0.0.1:${port}`;
    await startServer();
    const local = await Promise.all(
      [7, 8].map((seed) => cli([...sweepArgs(seed), '--out', join(dir, `local-${seed}`), '--workers', '1'])),
    );
    for (const r of local) expect(r.code, r.stderr).toBe(0);
  }, 300_000);

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await stopServer();
  });

  it('a worker SIGKILLed mid-run: its run is redelivered and every run is counted once', async () => {
    const a = worker('a');
    const sweep = cli([...sweepArgs(7), '--out', join(dir, 'killed'), '--queue', url]);
    const id = await a.started;
    (await a.child).kill('SIGKILL');
    const b = worker('b');
    const r = await sweep;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ runs: 6, ran: 6, failed: 0 });
    expect(table('killed')).toBe(table('local-7'));
    // the run the killed worker held was handed to the other one after the ack wait
    expect(b.stderr()).toContain(` ${id} started`);
    expect(await queueDrained()).toBe(0);
  }, 300_000);

  it('the server killed and restarted mid-sweep on the same store loses no run', async () => {
    // the earlier test's workers stop: worker c alone takes (and counts) every run below
    for (const child of children.splice(0)) child.kill('SIGKILL');
    const c = worker('c');
    const sweep = cli([...sweepArgs(8), '--out', join(dir, 'restarted'), '--queue', url]);
    await c.started;
    await stopServer();
    await new Promise((r) => setTimeout(r, 500));
    await startServer();
    const r = await sweep;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ runs: 6, ran: 6, failed: 0 });
    expect(table('restarted')).toBe(table('local-8'));
    expect(await queueDrained()).toBe(0);
    // a spec taken again after the restart (re-published, or redelivered after a failed
    // publish) is not run twice: the worker reuses the log it finished
    const runs = [...c.stderr().matchAll(/ (p\d+-r\d+) started/g)].map((m) => m[1]);
    expect(runs.toSorted()).toEqual(['p0-r0', 'p0-r1', 'p0-r2', 'p1-r0', 'p1-r1', 'p1-r2']);
  }, 300_000);
});
