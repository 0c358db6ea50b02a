import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { ECHO_WORLD } from '../support/echo-world.ts';
import { lines, reChain } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('cli');

// What a command decides (exit code, error line, files written, digests) is checked in this
// process (support/cli-in-process.ts: nothing left open); a CLI process costs ~0.3 CPU-s of
// start-up. The cases about the process spawn it (`cli`): a corrupt log's real exit and
// stderr, a user .ts world (loaded through tsx), a run killed mid-write.
const log = join(dir, 'base.ndjson');
let summary: Record<string, unknown>;

beforeAll(async () => {
  // 300 agents: 27 ticks, 31 lines (the edits below touch seq 7 to 20)
  const r = await cliChecked(['run', 'rumor', '--set', 'n=300', '--seed', '4', '--out', log, '--json']);
  expect(r.code).toBe(0);
  summary = JSON.parse(r.stdout);
});

describe('grapevine run / replay --verify', () => {
  it('prints a one-object JSON summary', () => {
    expect(summary).toMatchObject({ world: 'rumor', seed: 4, log, reason: 'extinct' });
    expect(summary.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(summary.events).toBe(lines(log).length - 1);
    expect(summary.metrics).toHaveProperty(['rumor.fractionAware']);
    expect(summary.ticks).toBeGreaterThan(5);
  });

  it('verifies a fresh log with the same digest', async () => {
    const r = await cliChecked(['replay', log, '--verify', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, digest: summary.digest });
  });

  it('refuses to overwrite an existing log without --force', async () => {
    const before = readFileSync(log, 'utf8');
    const r = await cliChecked(['run', 'rumor', '--set', 'n=100', '--out', log]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('already exists');
    expect(readFileSync(log, 'utf8')).toBe(before);
  });

  it('a changed byte in an event is reported with its seq (exit 2)', async () => {
    const raw = lines(log);
    const seq = 7;
    raw[seq] = raw[seq].replace('"stepped":', '"steppeD":');
    const bad = join(dir, 'byte.ndjson');
    writeFileSync(bad, `${raw.join('\n')}\n`);
    const r = await cliChecked(['replay', bad, '--verify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`seq ${seq}`);
    expect(r.stderr.split('\n')[0]).toMatch(/^grapevine: /);
  });

  it('a removed line is reported with the missing seq (exit 2)', async () => {
    const raw = lines(log);
    raw.splice(10, 1);
    const bad = join(dir, 'removed.ndjson');
    writeFileSync(bad, `${raw.join('\n')}\n`);
    const r = await cliChecked(['replay', bad, '--verify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('seq 10');
  });

  it('a forged log with a recomputed chain diverges at the edited event (exit 1)', async () => {
    const raw = lines(log);
    const seq = 12;
    const obj = JSON.parse(raw[seq]);
    obj.metrics['rumor.aware'] += 1;
    raw[seq] = JSON.stringify(obj);
    const bad = join(dir, 'forged.ndjson');
    writeFileSync(bad, reChain(raw));
    const r = await cliChecked(['replay', bad, '--verify']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`seq ${seq} (tick ${obj.t})`);
  });

  it('a truncated log fails verification naming where it ends', async () => {
    const raw = lines(log);
    const keep = raw.slice(0, 20);
    const cut = join(dir, 'cut.ndjson');
    writeFileSync(cut, `${keep.join('\n')}\n${raw[20].slice(0, 15)}`);
    const r = await cliChecked(['replay', cut, '--verify']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('seq 19');
    expect(r.stderr).toContain('seq 20');
  });
});

// the corrupt log below and the cases of reliability.test.ts check the real process's exit
// code and stderr
describe('bad input gets exit 2 and a message naming the problem', () => {
  it.each([
    [['run', 'no-such-world'], 'unknown world "no-such-world"'],
    [['run', 'rumor', '--set', 'nope=1'], 'unknown parameter "nope"'],
    [['run', 'rumor', '--set', 'beta=high'], 'parameter "beta"'],
    [['run', 'rumor', '--set', 'model=sir'], 'parameter "model"'],
    [['run', 'rumor', '--seed', 'abc'], '--seed'],
    [['run', 'rumor', '--config', '/no/such/config.json'], 'config file not found'],
    [['replay', '/no/such/log.ndjson', '--verify'], 'no such log file'],
    [['run', 'rumor', '--log', 'loud'], 'loud'],
  ])('%j', { timeout: 60_000 }, async (args, message) => {
    const r = await cliChecked(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a corrupt log file', async () => {
    const bad = join(dir, 'garbage.ndjson');
    writeFileSync(bad, 'this is not json\n');
    const r = await cli(['replay', bad, '--verify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 1/);
  });
});

describe('user world files, worlds and inspect', () => {
  it('runs and verifies a user .ts world file like a built-in one', async () => {
    const file = join(dir, 'my-world.ts');
    writeFileSync(file, ECHO_WORLD);
    const out = join(dir, 'echo.ndjson');
    const r = await cli(['run', file, '--ticks', '15', '--out', out, '--json', '--log', 'full']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ world: 'echo', ticks: 15, reason: 'max-ticks' });
    const v = await cli(['replay', out, '--verify', '--world', file]);
    expect(v.code).toBe(0);
    expect(lines(out).some((l) => l.includes('"type":"send"'))).toBe(true);
  });

  it('lists worlds with parameters and defaults', async () => {
    const r = await cliChecked(['worlds', '--json']);
    const worlds = JSON.parse(r.stdout) as { id: string; params: { name: string; default: unknown }[] }[];
    const rumor = worlds.find((w) => w.id === 'rumor')!;
    expect(rumor.params.find((p) => p.name === 'n')?.default).toBe(10000);
    expect(rumor.params.find((p) => p.name === 'model')?.default).toBe('daley-kendall');
  });

  it('inspect shows what an agent observed and its state at a tick', async () => {
    const full = join(dir, 'full.ndjson');
    expect(
      (
        await cliChecked([
          'run',
          'rumor',
          '--set',
          'n=300',
          // messages with latency, so that agents observe deliveries (instant contacts are encounters)
          '--set',
          'contact=delayed',
          '--out',
          full,
          '--log',
          'full',
          '--quiet',
        ])
      ).code,
    ).toBe(0);
    const observe = lines(full)
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'observe' && e.t > 2);
    const r = await cliChecked([
      'inspect',
      full,
      '--agent',
      String(observe.agent),
      '--at',
      String(observe.t),
      '--json',
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const seen = report.observed.flatMap((o: { messages: { id: number }[] }) => o.messages.map((m) => m.id));
    for (const id of observe.msgs) expect(seen).toContain(id);
    expect(report.state).toHaveProperty('rumor');
    expect(report.tick).toBe(observe.t);
  });
});

describe('a killed run', () => {
  it('leaves a readable, chain-verified log up to its last flushed tick; verify reports it incomplete', async () => {
    const { scanLog } = await import('../../src/replay/index.ts');
    const out = join(dir, 'killed.ndjson');
    const ticksOnDisk = () => {
      try {
        return lines(out).filter((l) => l.includes('"type":"tick"')).length;
      } catch {
        return 0;
      }
    };
    // once a few ticks are on disk, kill without warning: a small opinion run that never
    // converges (tolerance 0) and would go on for a million ticks, so the kill always lands
    // mid-run (a large rumour run did the same at the cost of building 200,000 agents twice)
    const args = ['--set', 'n=300', '--set', 'tolerance=0', '--ticks', '1000000', '--log', 'full'];
    await cli(['run', 'opinion', ...args, '--out', out, '--quiet'], {
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (ticksOnDisk() < 3) return;
          clearInterval(poll);
          child.kill('SIGKILL');
        }, 50);
        child.on('close', () => clearInterval(poll));
      },
    });
    const summary = await scanLog(out);
    expect(summary.complete).toBe(false);
    expect(summary.lastSeq).toBeGreaterThan(3);
    const r = await cliChecked(['replay', out, '--verify']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('incomplete');
  });
});
