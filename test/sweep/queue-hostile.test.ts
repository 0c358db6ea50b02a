// Hostile queue messages against real grapevine workers and a real nats-server (JetStream,
// started here on a free loopback port): a spec naming a file to import, a spec over the
// limits, an endless run, deep and prototype-keyed specs, and SIGTERM mid-run. Each spec a
// worker refuses goes to grapevine.dead exactly once and never runs code.
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { has, NATS_SERVER } from '../support/tools.ts';
import { startNats } from './nats-server.ts';

const dir = tempDir('queue-hostile');
const MARKER = join(dir, 'evil-ran');
const SECRET = 'sk-worker-secret-5d2e91';
const EVIL = join(dir, 'evil.mjs');
let url = '';
let server: ChildProcess;
let nc: NatsConnection;
const children: ChildProcess[] = [];

/** A worker child; resolves once it prints its banner. Its stderr so far is in `stderr()`. */
function startWorker(args: readonly string[]): {
  ready: Promise<void>;
  stderr: () => string;
  exit: Promise<number | null>;
  child: Promise<ChildProcess>;
} {
  let text = '';
  let onReady: () => void = () => {};
  let onChild: (c: ChildProcess) => void = () => {};
  const ready = new Promise<void>((done) => {
    onReady = done;
  });
  const child = new Promise<ChildProcess>((done) => {
    onChild = done;
  });
  const exit = cli(['worker', '--queue', url, '--ack-wait-ms', '600', ...args], {
    timeoutMs: 300_000,
    env: { HOSTILE_TEST_SECRET: SECRET },
    longLived: true,
    onSpawn: (c) => {
      children.push(c);
      onChild(c);
      c.stderr?.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('pulling runs from')) onReady();
      });
    },
  }).then((r) => r.code);
  return { ready, stderr: () => text, exit, child };
}

/** Every message on grapevine.dead for `ms` milliseconds. */
async function deadLetters(
  ms: number,
  during: () => Promise<void>,
): Promise<{ reason: string; data: string }[]> {
  const got: { reason: string; data: string }[] = [];
  const sub = nc.subscribe('grapevine.dead');
  const reading = (async () => {
    for await (const m of sub) got.push(m.json());
  })();
  await during();
  await new Promise((r) => setTimeout(r, ms));
  sub.unsubscribe();
  await reading;
  return got;
}

const publish = (sweep: string, body: string) => jetstream(nc).publish(`grapevine.runs.${sweep}`, body);

/** The results of a sweep on the results stream. */
async function results(sweep: string): Promise<Record<string, unknown>[]> {
  const js = jetstream(nc);
  const consumer = await js.consumers.get('GRAPEVINE_RESULTS', {
    filter_subjects: `grapevine.results.${sweep}`,
  });
  const pending = (await consumer.info()).num_pending;
  const out: Record<string, unknown>[] = [];
  if (pending === 0) return out;
  const batch = await consumer.fetch({ max_messages: pending, expires: 2000 });
  for await (const m of batch) out.push(m.json());
  return out;
}

const nats = has(NATS_SERVER, 'hostile queue specs against workers');

beforeAll(async () => {
  if (!nats) return;
  ({ url, server } = await startNats(join(dir, 'store')));
  nc = await connect({ servers: url });
  writeFileSync(
    EVIL,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(MARKER)}, 'ran');\nexport const world = {};\n`,
  );
});

// every worker shares one consumer: a test's workers end with it, so they take no later test's specs
afterEach(async () => {
  await Promise.all(
    children.splice(0).map(
      (c) =>
        new Promise<void>((done) => {
          if (c.exitCode !== null || c.signalCode !== null) return done();
          c.once('exit', () => done());
          c.kill('SIGKILL');
        }),
    ),
  );
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await nc?.close();
  server?.kill('SIGKILL');
});

describe.runIf(nats)('hostile queue specs', { timeout: 240_000 }, () => {
  it('a spec naming a file the worker was not given is refused before any import, once, with a failure result', async () => {
    const w = startWorker(['--logs', join(dir, 'logs-evil')]);
    await w.ready;
    const rel = relative(process.cwd(), EVIL);
    const spec = (id: string, world: string) =>
      JSON.stringify({ sweep: 'evil1', index: id === 'r0' ? 0 : 1, id, world, params: {}, seed: 1 });
    const letters = await deadLetters(3000, async () => {
      await publish('evil1', spec('r0', EVIL));
      await publish('evil1', spec('r1', rel));
    });
    expect(existsSync(MARKER)).toBe(false);
    expect(letters).toHaveLength(2); // each once: terminated, not redelivered after the 600 ms ack wait
    for (const l of letters) expect(l.reason).toMatch(/was not started with \(--world FILE\)/);
    const r = await results('evil1');
    expect(r.map((x) => x.id).sort()).toEqual(['r0', 'r1']);
    expect(String((r[0].error as { message: string }).message)).toMatch(/a worker refused the run/);
    expect(w.stderr()).not.toMatch(/exports no world|cannot load/);
  });

  it('a world file given with --world runs over the queue; a spec with another sha256 for it is refused', async () => {
    const world = join(dir, 'bounded-confidence.ts');
    copyFileSync('docs/examples/bounded-confidence.ts', world);
    const w = startWorker(['--logs', join(dir, 'logs-file'), '--world', world]);
    await w.ready;
    expect(w.stderr()).toContain(world);
    const sweep = await cli(
      [
        'sweep',
        world,
        '--grid',
        'epsilon=0.1,0.3',
        '--out',
        join(dir, 'file-sweep'),
        '--queue',
        url,
        '--json',
      ],
      { timeoutMs: 180_000 },
    );
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(JSON.parse(sweep.stdout)).toMatchObject({ runs: 2, ran: 2, failed: 0 });
    const letters = await deadLetters(2000, async () => {
      await publish(
        'sha1',
        JSON.stringify({
          sweep: 'sha1',
          index: 0,
          id: 'r0',
          world,
          worldSha256: 'a'.repeat(64),
          params: {},
          seed: 1,
        }),
      );
      await publish(
        'sha2',
        JSON.stringify({ sweep: 'sha2', index: 0, id: 'r0', world, params: {}, seed: 1 }),
      );
    });
    expect(letters).toHaveLength(2);
    expect(letters.map((l) => l.reason)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/has sha256 aaaaaaaaaaaa…, this worker's has/),
        expect.stringMatching(/without its sha256/),
      ]),
    );
  });

  it('a spec whose parameters name /proc/self/environ gets a failure result without the secret', async () => {
    const w = startWorker(['--logs', join(dir, 'logs-environ')]);
    await w.ready;
    const spec = (sweep: string, networkFile: string) =>
      JSON.stringify({
        sweep,
        index: 0,
        id: 'r0',
        world: 'rumor',
        params: { network: 'csv', networkFile },
        seed: 1,
      });
    await publish('environ1', spec('environ1', '/proc/self/environ'));
    await publish('environ2', spec('environ2', EVIL));
    let r: Record<string, unknown>[] = [];
    for (let i = 0; i < 60 && r.length < 2; i++) {
      await new Promise((done) => setTimeout(done, 500));
      r = [...(await results('environ1')), ...(await results('environ2'))];
    }
    expect(r).toHaveLength(2);
    for (const x of r) {
      expect(JSON.stringify(x)).not.toContain(SECRET);
      expect(String((x.error as { message: string }).message)).toMatch(
        /the spec names networkFile=\S+, a file this worker was not given/,
      );
    }
    expect(w.stderr()).not.toContain(SECRET);
  });

  it('malformed specs (deep, __proto__, oversized ticks, not JSON) are dead-lettered once each', async () => {
    const w = startWorker(['--logs', join(dir, 'logs-bad')]);
    await w.ready;
    const deep = `{"sweep":"bad1","index":0,"id":"r0","world":"rumor","seed":1,"params":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const letters = await deadLetters(3000, async () => {
      await publish('bad1', deep);
      await publish(
        'bad2',
        '{"sweep":"bad2","index":0,"id":"r0","world":"rumor","seed":1,"params":{"__proto__":{"n":5}}}',
      );
      await publish(
        'bad3',
        JSON.stringify({
          sweep: 'bad3',
          index: 0,
          id: 'r0',
          world: 'epidemic',
          params: {},
          seed: 1,
          ticks: 9007199254740991,
        }),
      );
      await publish('bad4', 'not json at all');
    });
    const reasons = letters.map((l) => l.reason);
    expect(reasons).toHaveLength(4);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/nested deeper than 32 levels/),
        expect.stringMatching(/the key "__proto__" is not allowed/),
        expect.stringMatching(/ticks=9007199254740991 is more than this run's memory can follow/),
        'the spec is not JSON',
      ]),
    );
    expect(w.stderr()).not.toMatch(/Maximum call stack|unexpected/);
  });

  it('an endless run is stopped by the wall-clock and event limits; its log is removed; the spec is not redelivered', async () => {
    const sis = (sweep: string) =>
      JSON.stringify({
        sweep,
        index: 0,
        id: 'r0',
        world: 'epidemic',
        params: { model: 'sis', n: 500, contactRate: 0.8, beta: 0.9, gamma: 0.05, initial: 50 },
        seed: 1,
        ticks: 1_000_000,
      });
    const cases = [
      {
        sweep: 'endless1',
        args: ['--max-run-seconds', '3'],
        message: /stopped after 3 s: longer than this worker's limit per run/,
      },
      {
        sweep: 'endless2',
        args: ['--max-run-events', '2000'],
        message: /log events: more than this worker's limit of 2000/,
      },
    ];
    for (const c of cases) {
      const logs = join(dir, `logs-${c.sweep}`);
      const w = startWorker(['--logs', logs, ...c.args]);
      await w.ready;
      await publish(c.sweep, sis(c.sweep));
      let r: Record<string, unknown>[] = [];
      for (let i = 0; i < 60 && r.length === 0; i++) {
        await new Promise((done) => setTimeout(done, 500));
        r = await results(c.sweep);
      }
      expect(r).toHaveLength(1);
      expect(String((r[0].error as { message: string }).message)).toMatch(c.message);
      expect(existsSync(join(logs, c.sweep, 'r0.ndjson'))).toBe(false);
      await new Promise((done) => setTimeout(done, 2000)); // several ack waits: nothing comes back
      expect(await results(c.sweep)).toHaveLength(1);
      (await w.child).kill('SIGKILL');
    }
  });

  it('SIGTERM mid-run ends the worker within seconds and hands the spec back to another worker', async () => {
    const a = startWorker(['--logs', join(dir, 'logs-term-a')]);
    await a.ready;
    await publish(
      'term1',
      JSON.stringify({
        sweep: 'term1',
        index: 0,
        id: 'r0',
        world: 'epidemic',
        params: { model: 'sis', n: 300, contactRate: 0.8, beta: 0.9, gamma: 0.05, initial: 30 },
        seed: 2,
        ticks: 20_000,
      }),
    );
    for (let i = 0; i < 100 && !a.stderr().includes('term1 r0 started'); i++)
      await new Promise((d) => setTimeout(d, 100));
    expect(a.stderr()).toContain('term1 r0 started');
    const sent = Date.now();
    (await a.child).kill('SIGTERM');
    const code = await a.exit;
    expect(Date.now() - sent).toBeLessThan(10_000);
    expect(code).toBe(0);
    expect(a.stderr()).toMatch(/SIGTERM received: ending the runs under way/);
    const b = startWorker(['--logs', join(dir, 'logs-term-b')]);
    await b.ready;
    let r: Record<string, unknown>[] = [];
    for (let i = 0; i < 240 && r.length === 0; i++) {
      await new Promise((done) => setTimeout(done, 500));
      r = await results('term1');
    }
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ id: 'r0', seed: 2 });
    expect(r[0].digest).toMatch(/^[0-9a-f]{64}$/);
    expect(readdirSync(join(dir, 'logs-term-b', 'term1'))).toContain('r0.ndjson');
  });
});
