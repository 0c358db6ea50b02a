import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.ts';
import { cliChecked } from '../../support/cli-in-process.ts';
import { tempDir } from '../../support/temp-dir.ts';

const worldFile = './worlds/opinion/index.ts';
// The cases after the first check the world's own behaviour, the same whatever loads it: they
// run the built-in id in this process (the CLI's `main`, nothing left open), which spares each
// a process start (~0.3 CPU-s); the first case runs the world file in real processes.
const builtin = 'opinion';
const dir = tempDir('opinion-cli');

async function runJson(world: string, out: string, ...sets: string[]): Promise<Record<string, unknown>> {
  const args = sets.flatMap((s) => ['--set', s]);
  const argv = ['run', world, ...args, '--seed', '5', '--ticks', '30', '--out', out, '--json'];
  const r = world === builtin ? await cliChecked(argv) : await cli(argv);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('opinion world through the CLI (world file path)', () => {
  it('same seed, same digest; replay --verify reproduces it; both executors agree', async () => {
    const sets = ['model=hegselmann-krause', 'n=150', 'epsilon=0.15'];
    const a = await runJson(worldFile, join(dir, 'a.ndjson'), ...sets);
    const b = await runJson(worldFile, join(dir, 'b.ndjson'), ...sets);
    const x = await runJson(worldFile, join(dir, 'x.ndjson'), ...sets, 'executor=xstate');
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(b.digest).toBe(a.digest);
    expect(x.summary).toEqual(a.summary);
    // a log names its world file, but is replayed only with the file the user names (--world)
    const v = await cli(['replay', join(dir, 'a.ndjson'), '--verify', '--json', '--world', worldFile]);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ verified: true, digest: a.digest });
  }, 120_000);

  it('a different seed gives different opinions', async () => {
    const a = await runJson(builtin, join(dir, 'c.ndjson'), 'n=100', 'model=friedkin-johnsen');
    const r = await cliChecked([
      'run',
      builtin,
      '--set',
      'n=100',
      '--set',
      'model=friedkin-johnsen',
      '--seed',
      '6',
      '--ticks',
      '30',
      '--out',
      join(dir, 'd.ndjson'),
      '--json',
    ]);
    expect(JSON.parse(r.stdout).digest).not.toBe(a.digest);
  }, 120_000);

  it('a weights row that does not sum to 1 is a one-line error naming file:line (exit 2)', async () => {
    const w = join(dir, 'bad-w.csv');
    writeFileSync(w, '# trust\ni,j,w\n0,0,0.5\n0,1,0.5\n1,0,0.3\n1,1,0.6\n');
    const r = await cliChecked(['run', builtin, '--set', 'weights=file', '--set', `weightsFile=${w}`]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `grapevine: ${w}:5: the weights of agent 1 sum to 0.8999999999999999, not 1 (tolerance 1e-9)`,
    );
    expect(r.stderr).not.toContain('    at ');
  }, 120_000);

  it('a malformed weights line is named by file:line (exit 2)', async () => {
    const w = join(dir, 'bad-line.csv');
    writeFileSync(w, '0,0,1\n1,1\n');
    const r = await cliChecked(['run', builtin, '--set', 'weights=file', '--set', `weightsFile=${w}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${w}:2: expected "i,j,w"`);
  }, 120_000);
});
