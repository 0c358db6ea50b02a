// Logs in a JetStream object store (`worker --logs nats-obj://BUCKET`), against a real
// nats-server: no folder is shared; the coordinator fetches every log into its --out.
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { has, NATS_SERVER } from '../support/tools.ts';
import { startNats } from './nats-server.ts';

const nats = has(NATS_SERVER, 'sweep logs in a JetStream object store');

const dir = tempDir('nats-obj');
const SWEEP = ['rumor', '--grid', 'p=0.1,0.3', '--set', 'n=200', '--set', 'model=independent-cascade'];
const ARGS = [...SWEEP, '--replicates', '2', '--seed', '9', '--ticks', '15', '--json'];
let url = '';
let server: ChildProcess | undefined;
const children: ChildProcess[] = [];
const read = (...p: string[]) => readFileSync(join(dir, ...p), 'utf8');

/** A worker storing logs in the bucket `runlogs`; its stderr as it grows. */
function worker(): () => string {
  let text = '';
  void cli(['worker', '--queue', url, '--logs', 'nats-obj://runlogs', '--concurrency', '2'], {
    // its own temporary folder goes inside the test's: a worker killed here cannot remove it
    env: { TMPDIR: dir },
    timeoutMs: 300_000,
    longLived: true,
    onSpawn: (c) => {
      children.push(c);
      c.stderr?.on('data', (d: Buffer | string) => {
        text += String(d);
      });
    },
  });
  return () => text;
}

async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 1200 && !test(); i++) await new Promise((r) => setTimeout(r, 50));
}

describe.runIf(nats)('sweep logs in a JetStream object store', () => {
  beforeAll(async () => {
    ({ url, server } = await startNats(join(dir, 'store')));
  }, 60_000);

  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    server?.kill('SIGKILL');
  });

  it('the coordinator fetches every log: table and logs equal the local pool, and a worker reuses a stored log', async () => {
    const a = worker();
    const [local, queued] = await Promise.all([
      cli(['sweep', ...ARGS, '--out', join(dir, 'local'), '--workers', '1'], { timeoutMs: 120_000 }),
      cli(['sweep', ...ARGS, '--out', join(dir, 'queued'), '--queue', url], { timeoutMs: 120_000 }),
    ]);
    expect(local.code, local.stderr).toBe(0);
    expect(queued.code, queued.stderr).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ runs: 4, ran: 4, failed: 0 });
    expect(read('queued', 'results.csv')).toBe(read('local', 'results.csv'));
    const logs = readdirSync(join(dir, 'local', 'runs')).toSorted();
    expect(logs).toHaveLength(4);
    expect(readdirSync(join(dir, 'queued', 'runs')).toSorted()).toEqual(logs);
    for (const f of logs) expect(read('queued', 'runs', f)).toBe(read('local', 'runs', f));
    expect(a()).toContain('logs in the object store runlogs');

    // another machine's worker: a spec taken again is answered from the stored log when it
    // verifies, and redone (and stored again) when the stored object is damaged
    for (const c of children.splice(0)) c.kill('SIGKILL');
    const b = worker();
    const sweep = createHash('sha256')
      .update(readFileSync(join(dir, 'queued', 'sweep.json')))
      .digest('hex')
      .slice(0, 16);
    const nc = await connect({ servers: url });
    const store = await new Objm(nc).open('runlogs');
    await store.putBlob({ name: `${sweep}/p0-r1.ndjson` }, new TextEncoder().encode('{"not":"a log"}\n'));
    // the spec as the coordinator published it: params and seed from the run's log header
    const spec = (index: number, id: string) => {
      const header = JSON.parse(read('local', 'runs', `${id}.ndjson`).split('\n')[0]);
      return JSON.stringify({
        sweep,
        index,
        id,
        world: 'rumor',
        params: header.params,
        seed: header.seed,
        ticks: 15,
      });
    };
    const js = jetstream(nc);
    await js.publish(`grapevine.runs.${sweep}`, spec(0, 'p0-r0'), { msgID: 'again-p0-r0' });
    await js.publish(`grapevine.runs.${sweep}`, spec(1, 'p0-r1'), { msgID: 'again-p0-r1' });
    await until(() => /p0-r0 reused/.test(b()) && /p0-r1 [0-9a-f]{64}/.test(b()));
    expect(b()).toMatch(/p0-r0 reused \(its log verifies here\)/);
    expect(b()).toMatch(/p0-r1 started/);
    expect(b()).not.toMatch(/p0-r0 started/);
    const restored = await store.getBlob(`${sweep}/p0-r1.ndjson`);
    await nc.close();
    expect(new TextDecoder().decode(restored ?? new Uint8Array())).toBe(
      read('local', 'runs', 'p0-r1.ndjson'),
    );

    // a coordinator on a fresh folder finds the results on the stream and fetches every log
    const fresh = await cli(['sweep', ...ARGS, '--out', join(dir, 'fresh'), '--queue', url], {
      timeoutMs: 120_000,
    });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(read('fresh', 'results.csv')).toBe(read('local', 'results.csv'));
    for (const f of logs) expect(read('fresh', 'runs', f)).toBe(read('local', 'runs', f));
  }, 300_000);
});
