import { appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { lines } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

// Cases about what a command decides (exit code, error line, files written, digests) run
// `main` in this process (support/cli-in-process.ts: no resource or signal handler left behind);
// a CLI process costs ~0.3 CPU-s of start-up. The cases about the process itself (a signal,
// two processes racing for one file, a user .ts world loaded through tsx) spawn it.

const dir = tempDir();
const base = join(dir, 'base.ndjson');
let digest = '';

beforeAll(async () => {
  const r = await cliChecked(['run', 'rumor', '--set', 'n=400', '--seed', '3', '--out', base, '--json']);
  expect(r.code, r.stderr).toBe(0);
  digest = JSON.parse(r.stdout).digest;
}, 120_000);

function oneError(stderr: string): void {
  expect(hasStack(stderr)).toBe(false);
  expect(stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  expect(stderr).toMatch(/^grapevine: /);
}

describe('bytes after the end line are detected (issue 15, item 6)', () => {
  it('garbage, NUL bytes, an extra or an empty gzip member: replay, diff, fork and inspect refuse', async () => {
    const gz = join(dir, 'base.ndjson.gz');
    writeFileSync(gz, gzipSync(readFileSync(base)));
    const cases: [string, string, Buffer][] = [
      ['garbage.ndjson', base, Buffer.from('garbage')],
      ['nul.ndjson', base, Buffer.alloc(16)],
      ['line.ndjson', base, Buffer.from('{"seq":99}\n')],
      ['member.ndjson.gz', gz, gzipSync('{"x":1}\n')],
      ['empty.ndjson.gz', gz, gzipSync('')],
      ['zeros.ndjson.gz', gz, Buffer.alloc(64)],
    ];
    // one after the other: in-process commands must not overlap
    for (const [k, [name, from, extra]] of cases.entries()) {
      const path = join(dir, name);
      copyFileSync(from, path);
      appendFileSync(path, extra);
      const cmd = [
        ['replay', path, '--verify'],
        ['diff', path, base],
        ['fork', path, '--at', '1', '--out', join(dir, `never-${name}`)],
        ['inspect', path],
        ['resume', path],
        ['replay', path, '--verify'],
      ][k];
      const r = await cliChecked(cmd);
      expect(r.code, `${name} ${cmd[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/after its end|follows the end line/);
      oneError(r.stderr);
    }
    expect(readdirSync(dir).some((f) => f.startsWith('never-'))).toBe(false);
  }, 600_000);
});

describe('interrupted runs (issue 15, items 7, 8, 11)', () => {
  it('a log killed between its header and tick 0 resumes from the header to the same digest', async () => {
    const path = join(dir, 'header-only.ndjson');
    const raw = lines(base);
    writeFileSync(path, `${raw[0]}\n${raw[1].slice(0, 40)}`);
    const r = await cliChecked(['resume', path, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).digest).toBe(digest);
  }, 120_000);

  it('stale .partial-<pid> files of killed resumes and forks are removed', async () => {
    const child = join(dir, 'child.ndjson');
    const stale = [
      `${child}.partial-999999`,
      `${child}.partial-999998.gz`,
      `${child}.partial-999997.tmp-999997`,
    ];
    for (const s of stale) writeFileSync(s, 'x'.repeat(1000));
    const r = await cliChecked(['fork', base, '--at', '2', '--out', child, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    for (const s of stale) expect(existsSync(s), s).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);
  }, 120_000);

  it('SIGINT stops a run at a tick boundary, says how to resume, and the resumed log verifies', async () => {
    const path = join(dir, 'interrupted.ndjson');
    const r = await cli(['run', 'rumor', '--set', 'n=30000', '--ticks', '400', '--out', path, '--quiet'], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (existsSync(path) && readFileSync(path, 'utf8').includes('"type":"tick"')) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 50);
        child.on('close', () => clearInterval(poll));
      },
    });
    expect(r.hung).toBe(false);
    if (r.code === 0) return; // the run finished before the signal: nothing to check
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(`grapevine resume ${path}`);
    expect(hasStack(r.stderr)).toBe(false);
    const resumed = await cliChecked(['resume', path, '--quiet']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await cliChecked(['replay', path, '--verify', '--quiet'])).code).toBe(0);
  }, 300_000);
});

describe('exclusive --out (issue 15, item 3)', () => {
  it('of two runs started at once with the same --out, one is refused and the log verifies', async () => {
    const out = join(dir, 'race.ndjson');
    const [a, b] = await Promise.all(
      [1, 2].map((s) => cli(['run', 'rumor', '--set', 'n=20000', '--seed', `${s}`, '--out', out, '--quiet'])),
    );
    expect([a.code, b.code].sort()).toEqual([0, 2]);
    const refused = a.code === 2 ? a : b;
    // refused by the winner's lock while it writes, or by the file once it has finished
    expect(refused.stderr).toMatch(/already exists|is being written by process \d+/);
    oneError(refused.stderr);
    expect((await cliChecked(['replay', out, '--verify', '--quiet'])).code).toBe(0);
  }, 300_000);
});

const NAN_WORLD = `import { defineAgentMachine, defineWorld, ringLattice, z } from 'grapevine';
const agent = defineAgentMachine({ id: 'nan', regions: { mood: { initial: 'busy', states: { busy: { tags: ['active'] } } } }, memory: {} });
export const world = defineWorld({
  id: 'nan', version: '0.1.0', description: 'sends a NaN payload at tick 2', params: z.object({ n: z.number().int().default(6) }),
  create: ({ params }) => ({
    size: params.n, agents: agent, executor: 'xstate', network: ringLattice({ n: params.n, k: 2 }), turnPolicy: 'simultaneous',
    policy: (ctx) => { ctx.send({ to: 'agent', id: (ctx.agent + 1) % 6 }, 'say', undefined, ctx.tick === 2 ? Number.NaN : ctx.tick); },
    metrics: () => ({}),
  }),
});
`;

describe('write errors stop the run (issue 15, item 4)', () => {
  // spawned: the world is a user .ts file, which the CLI loads through tsx
  it('an unwritable send line stops the run at the tick boundary with exit 1; the log claims no success', async () => {
    const file = join(dir, 'nan-world.ts');
    writeFileSync(file, NAN_WORLD);
    const out = join(dir, 'nan.ndjson');
    // --no-check: the world is type-correct, and what its log's writer does is the case
    const r = await cli(['run', file, '--ticks', '5', '--log', 'full', '--out', out, '--no-check']);
    expect(r.hung).toBe(false);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toContain('digest');
    oneError(r.stderr);
    expect(r.stderr).toContain('send line of tick 2');
    const types = lines(out).map((l) => JSON.parse(l) as { type: string; t: number });
    expect(types.some((e) => e.type === 'end')).toBe(false);
    expect(Math.max(...types.map((e) => e.t))).toBeLessThan(2);
    const v = await cli(['replay', out, '--verify', '--world', file, '--no-check']);
    expect(v.code).toBe(1);
    expect(v.stdout).not.toContain('verified');
    oneError(v.stderr);
  }, 180_000);

  it('a truncated --log full log names the first missing event, without a stack trace', async () => {
    const full = join(dir, 'full.ndjson');
    expect(
      (
        await cliChecked([
          'run',
          'rumor',
          '--set',
          'n=200',
          '--set',
          'contact=delayed', // message passing, so the full log has send lines
          '--log',
          'full',
          '--out',
          full,
          '--quiet',
        ])
      ).code,
    ).toBe(0);
    const raw = lines(full);
    const cut = raw.findIndex((l) => l.includes('"type":"send"') && JSON.parse(l).t >= 2);
    const path = join(dir, 'full-cut.ndjson');
    writeFileSync(path, `${raw.slice(0, cut).join('\n')}\n`);
    const r = await cliChecked(['replay', path, '--verify']);
    expect(r.code).toBe(1);
    oneError(r.stderr);
    expect(r.stderr).toContain(`seq ${cut}`);
    expect(r.stderr).toContain('send');
  }, 180_000);
});

describe('early checks exit 2 and write nothing (issue 15, item 10)', () => {
  it.each([
    [['--seed', '1.5']],
    [['--seed', '99999999999999999999']],
    [['--seed', '-1']],
    [['--ticks', '2.5']],
    [['--set', 'network=csv', '--set', 'networkFile=/dev/zero']],
    [['--set', 'n=4294967296']],
  ])('run rumor %j', { timeout: 120_000 }, async (args) => {
    const out = join(dir, `bad-${Math.random()}.ndjson`);
    const r = await cliChecked(['run', 'rumor', ...args, '--out', out]);
    expect(r.code, r.stderr).toBe(2);
    oneError(r.stderr);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    ['{"params": {}, "seed": 1.5}'],
    ['{"params": {}, "seed": -1}'],
    ['{"params": {}, "ticks": -5}'],
    ['{"params": {}, "ticks": 2.5}'],
    ['{"params": {}, "ticks": "10"}'],
  ])('run rumor --config %s', { timeout: 60_000 }, async (json) => {
    const config = join(dir, `config-${Math.random()}.json`);
    writeFileSync(config, json);
    const out = join(dir, `bad-${Math.random()}.ndjson`);
    const r = await cliChecked(['run', 'rumor', '--config', config, '--out', out]);
    expect(r.code, r.stderr).toBe(2);
    oneError(r.stderr);
    expect(existsSync(out)).toBe(false);
  });

  it('fork --replicates with a file as --out', async () => {
    const r = await cliChecked(['fork', base, '--at', '1', '--replicates', '2', '--out', base]);
    expect(r.code).toBe(2);
    oneError(r.stderr);
    expect(readdirSync(dir).some((f) => f.startsWith('treated-'))).toBe(false);
  }, 60_000);
});

describe('fork parameters: applied or refused (issue 15, item 15)', () => {
  const VALUES: Record<string, unknown> = {
    n: 100,
    network: 'ring-lattice',
    k: 4,
    beta: 0.3,
    m: 2,
    blocks: 2,
    pIn: 0.1,
    pOut: 0.01,
    networkFile: 'x.csv',
    model: 'maki-thompson',
    p: 0.5,
    theta: 3,
    insiders: 2,
    spreaders: 2,
    skeptics: 0.5,
    skepticism: 0.5,
    debunkers: 0.1,
    factBlocksRumor: false,
    turns: 'random-order',
    activation: 'uniform',
    executor: 'xstate',
    contact: 'delayed',
    phi: 0.3,
    phiDistribution: 'uniform',
    phiSpread: 0.05,
  };
  const FIXED = [
    'n',
    'network',
    'k',
    'beta',
    'm',
    'blocks',
    'pIn',
    'pOut',
    'networkFile',
    'insiders',
    'spreaders',
    'skeptics',
    'debunkers',
    'turns',
    'activation',
    'executor',
    'contact',
    'phi',
    'phiDistribution',
    'phiSpread',
  ];

  it('covers every parameter of the rumor world', async () => {
    const r = await cliChecked(['worlds', '--json']);
    const rumor = (JSON.parse(r.stdout) as { id: string; params: { name: string }[] }[]).find(
      (w) => w.id === 'rumor',
    )!;
    expect(rumor.params.map((p) => p.name).sort()).toEqual(Object.keys(VALUES).sort());
  }, 60_000);

  it.each(Object.entries(VALUES))(
    'fork --set %s=%j',
    async (name, value) => {
      const out = join(dir, `fork-${name}.ndjson`);
      const r = await cliChecked([
        'fork',
        base,
        '--at',
        '2',
        '--set',
        `${name}=${JSON.stringify(value)}`,
        '--out',
        out,
        '--json',
      ]);
      if (FIXED.includes(name)) {
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain(`a fork cannot change ${name}`);
        expect(existsSync(out)).toBe(false);
      } else {
        expect(r.code, r.stderr).toBe(0);
        const iv = lines(out)
          .map((l) => JSON.parse(l))
          .find((e) => e.type === 'intervene');
        expect(iv.intervention).toEqual({ type: 'params', set: { [name]: value } });
        expect(JSON.parse(r.stdout).digest).not.toBe(digest);
      }
    },
    120_000,
  );
});
