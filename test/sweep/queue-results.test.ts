// The coordinator's side of a queue sweep against hostile results, on a real nats-server
// that requires a user and password (as docs/DISTRIBUTED.md configures it): the sweep and
// the workers authenticate, never print the password, and a non-JSON or forged result is
// dead-lettered once and deleted from the results stream instead of ending or poisoning the
// sweep.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { has, NATS_SERVER } from '../support/tools.ts';
import { startNats } from './nats-server.ts';

const dir = tempDir('queue-results');
const USER = 'grapevine';
const PASSWORD = 'pw-Secr3t-71x';
let port = 0;
let server: ChildProcess;
let nc: NatsConnection;
const children: ChildProcess[] = [];
const SWEEP = ['rumor', '--grid', 'p=0.1,0.3', '--set', 'n=200', '--seed', '9', '--ticks', '30', '--json'];
const authed = () => `nats://${USER}:${PASSWORD}@127.0.0.1:${port}`;
const bare = () => `nats://127.0.0.1:${port}`;
const ENV = { GRAPEVINE_NATS_USER: USER, GRAPEVINE_NATS_PASSWORD: PASSWORD };

function worker(): { stderr: () => string } {
  let text = '';
  void cli(['worker', '--queue', authed(), '--logs', join(dir, 'logs'), '--ack-wait-ms', '1000'], {
    timeoutMs: 300_000,
    longLived: true,
    onSpawn: (c) => {
      children.push(c);
      c.stderr?.on('data', (d: Buffer) => {
        text += d.toString();
      });
    },
  });
  return { stderr: () => text };
}

const nats = has(NATS_SERVER, 'a queue sweep against hostile results');

beforeAll(async () => {
  if (!nats) return;
  ({ server, port } = await startNats(join(dir, 'store'), undefined, ['--user', USER, '--pass', PASSWORD]));
  nc = await connect({ servers: bare(), user: USER, pass: PASSWORD });
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await nc?.close();
  server?.kill('SIGKILL');
});

interface Spec {
  sweep: string;
  id: string;
  index: number;
  seed: number;
}

/** The specs on the runs stream once `n` are there (the sweep published them). */
async function publishedSpecs(n: number): Promise<Spec[]> {
  const jsm = await jetstreamManager(nc);
  for (let i = 0; i < 200; i++) {
    const info = await jsm.streams.info('GRAPEVINE_RUNS').catch(() => undefined);
    if ((info?.state.messages ?? 0) >= n) {
      const out: Spec[] = [];
      for (let seq = info!.state.first_seq; seq <= info!.state.last_seq; seq++)
        out.push((await jsm.streams.getMessage('GRAPEVINE_RUNS', { seq }))!.json<Spec>());
      return out;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the sweep published no specs');
}

describe.runIf(nats)(
  'a queue sweep against hostile results, with user/password auth',
  { timeout: 240_000 },
  () => {
    it('without credentials exits 2 with one line that names them and prints no password', async () => {
      const r = await cli(['sweep', ...SWEEP, '--out', join(dir, 'noauth'), '--queue', bare()]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^grapevine: cannot reach the queue at nats:\/\/127\.0\.0\.1:\d+: .*Authorization/m,
      );
      expect(r.stderr).toContain('GRAPEVINE_NATS_USER');
      expect(hasStack(r.stderr)).toBe(false);
      const wrong = await cli([
        'sweep',
        ...SWEEP,
        '--out',
        join(dir, 'wrong'),
        '--queue',
        `nats://${USER}:nope-${PASSWORD}@127.0.0.1:${port}`,
      ]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('nats://***@127.0.0.1');
      expect(wrong.stderr).not.toContain(PASSWORD);
    });

    it('refuses non-JSON and forged results once, finishes with the real ones, and a rerun meets none again', async () => {
      const local = await cli(['sweep', ...SWEEP, '--out', join(dir, 'local'), '--workers', '1']);
      expect(local.code, local.stderr).toBe(0);
      const out = join(dir, 'queued');
      const sweep = cli(['sweep', ...SWEEP, '--out', out, '--queue', bare()], {
        env: ENV,
        timeoutMs: 180_000,
      });
      const specs = await publishedSpecs(2);
      const [a, b] = specs;
      const js = jetstream(nc);
      const subject = `grapevine.results.${a.sweep}`;
      const dead: { reason: string }[] = [];
      const sub = nc.subscribe('grapevine.dead');
      const reading = (async () => {
        for await (const m of sub) dead.push(m.json());
      })();
      const forged = {
        sweep: a.sweep,
        id: a.id,
        index: a.index,
        seed: a.seed,
        ticks: 3,
        reason: 'x',
        metrics: {},
        summary: {},
      };
      await js.publish(subject, 'this is not JSON');
      await js.publish(subject, JSON.stringify({ ...forged, digest: 'deadbeef' }));
      await js.publish(subject, JSON.stringify({ ...forged, seed: a.seed + 1, digest: 'a'.repeat(64) }));
      await js.publish(subject, JSON.stringify({ ...forged, id: b.id, digest: 'b'.repeat(64) }));
      await js.publish(subject, JSON.stringify({ ...forged, index: 99, digest: 'c'.repeat(64) }));
      const w = worker();
      const r = await sweep;
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ runs: 2, ran: 2, failed: 0 });
      const table = (d: string) => readFileSync(join(dir, d, 'results.csv'), 'utf8');
      expect(table('queued')).toBe(table('local'));
      expect(r.stderr.match(/a result on grapevine\.results\.\w+ was refused/g)).toHaveLength(5);
      expect(r.stderr).toMatch(/the result is not JSON/);
      expect(r.stderr).toMatch(/digest: Invalid string/);
      expect(r.stderr).toMatch(/says run \S+ with seed/);
      expect(r.stderr).toMatch(/run index 99, which this sweep did not publish/);
      expect(w.stderr()).not.toContain(PASSWORD);
      expect(w.stderr()).toContain('nats://***@127.0.0.1');
      sub.unsubscribe();
      await reading;
      expect(dead).toHaveLength(5);
      const again = await cli(['sweep', ...SWEEP, '--out', out, '--queue', authed()]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toMatch(/refused/);
      expect(table('queued')).toBe(table('local'));
    });
  },
);
