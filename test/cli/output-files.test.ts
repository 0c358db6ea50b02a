// Every command that writes a file follows the same --out rules: an existing file or a
// symlink (dangling or not) is refused without --force and left as it was; --force replaces a
// symlink itself and never writes through it; no temporary file is left beside the output
// (what a command decides: the CLI's `main` in this process, nothing left open); two forks
// (or flattens) racing to one --out, in real processes of the built CLI: one wins, the other
// exits 2, and the file that survives is the winner's.
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('out-rules');
const parent = join(dir, 'parent.ndjson');
const child = join(dir, 'child.ndjson');
const answers = join(dir, 'answers.csv');
const human = join(dir, 'human.csv');

beforeAll(async () => {
  const r = await cli(['run', 'rumor', '--set', 'n=100', '--ticks', '10', '--seed', '1', '--out', parent]);
  expect(r.code, r.stderr).toBe(0);
  const f = await cli(['fork', parent, '--at', '5', '--seed', '2', '--out', child, '--quiet']);
  expect(f.code, f.stderr).toBe(0);
  const rows = Array.from({ length: 20 }, (_, i) => `a${i},likes,likert,${(i % 4) + 1},initial`);
  writeFileSync(answers, ['agent,item,kind,answer,phase', ...rows].join('\n'));
  writeFileSync(
    human,
    ['item,group,option,share,n,source', ...[1, 2, 3, 4].map((o) => `likes,all,${o},0.25,200,planted`)].join(
      '\n',
    ),
  );
}, 60_000);

/** Each command that writes a file, with its arguments writing to `out`. */
const WRITERS: [string, (out: string) => string[]][] = [
  ['run', (out) => ['run', 'rumor', '--set', 'n=100', '--ticks', '5', '--seed', '1', '--out', out]],
  ['fork', (out) => ['fork', parent, '--at', '5', '--seed', '3', '--out', out]],
  ['flatten', (out) => ['flatten', child, '--out', out]],
  ['report', (out) => ['report', parent, '--out', out]],
  ['export', (out) => ['export', parent, '--what', 'metrics', '--out', out]],
  ['compare', (out) => ['compare', answers, '--human', human, '--out', out]],
  ['validate', (out) => ['validate', '--quick', '--only', 'degroot-consensus', '--out', out]],
];

function leftovers(folder: string): string[] {
  return readdirSync(folder).filter(
    (f) => f.includes('.grapevine-') || f.includes('.tmp-') || f.endsWith('.part'),
  );
}

describe('--out rules for every command', { timeout: 120_000 }, () => {
  it.each(WRITERS)(
    '%s: an existing file is refused without --force and left as it was',
    async (name, args) => {
      const folder = join(dir, `exists-${name}`);
      mkdirSync(folder);
      const out = join(folder, 'out.file');
      writeFileSync(out, 'keep me');
      const r = await cliChecked(args(out));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/already exists\nhint: .*--force/);
      expect(hasStack(r.stderr)).toBe(false);
      expect(readFileSync(out, 'utf8')).toBe('keep me');
      expect(leftovers(folder)).toEqual([]);
    },
  );

  it.each(WRITERS)(
    '%s: a symlink is refused without --force; --force replaces the link, not its target',
    async (name, args) => {
      const folder = join(dir, `link-${name}`);
      mkdirSync(folder);
      const target = join(folder, 'target.txt');
      writeFileSync(target, 'the target');
      const out = join(folder, 'out.file');
      symlinkSync(target, out);
      const dangling = join(folder, 'dangling.file');
      symlinkSync(join(folder, 'nowhere'), dangling);
      const refused = await cliChecked(args(out));
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/already exists/);
      const danglingRefused = await cliChecked(args(dangling));
      expect(danglingRefused.code, danglingRefused.stderr).toBe(2);
      expect(readdirSync(folder)).not.toContain('nowhere');
      const forced = await cliChecked([...args(out), '--force']);
      expect(forced.code, forced.stderr).toBe(0);
      expect(readFileSync(target, 'utf8')).toBe('the target');
      expect(lstatSync(out).isSymbolicLink()).toBe(false);
      expect(lstatSync(out).size).toBeGreaterThan(0);
      expect(leftovers(folder)).toEqual([]);
    },
  );
});

describe('concurrent writers to one --out', { timeout: 120_000 }, () => {
  it.each([
    [
      'fork',
      (out: string, seed: string) => ['fork', parent, '--at', '5', '--seed', seed, '--out', out, '--json'],
    ],
    ['flatten', (out: string) => ['flatten', child, '--out', out, '--json']],
  ] as const)(
    "two %s runs: one wins, the other exits 2, the surviving file is the winner's",
    async (name, args) => {
      const folder = join(dir, `race-${name}`);
      mkdirSync(folder);
      const out = join(folder, 'out.ndjson');
      const [a, b] = await Promise.all([cli(args(out, '7')), cli(args(out, '8'))]);
      const codes = [a.code, b.code].sort();
      expect(codes, `${a.stderr}\n${b.stderr}`).toEqual([0, 2]);
      const [winner, loser] = a.code === 0 ? [a, b] : [b, a];
      expect(loser.stderr).toMatch(/already exists|appeared while this command wrote it/);
      const verify = await cli(['replay', out, '--verify', '--json']);
      expect(verify.code, verify.stderr).toBe(0);
      expect(JSON.parse(verify.stdout).digest).toBe(JSON.parse(winner.stdout).digest);
      expect(leftovers(folder)).toEqual([]);
    },
  );
});

describe('files left by killed writers', () => {
  it('a fork removes the staging and partial files of dead processes beside its --out', {
    timeout: 60_000,
  }, async () => {
    const folder = join(dir, 'stale');
    mkdirSync(folder);
    const out = join(folder, 'out.ndjson');
    const stale = [
      '.out.ndjson.grapevine-999999-k1-out.ndjson',
      '.out.ndjson.grapevine-999999-k1-out.ndjson.partial-999999',
      'out.ndjson.partial-999998',
    ];
    for (const f of stale) writeFileSync(join(folder, f), 'x');
    const r = await cli(['fork', parent, '--at', '5', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(folder)).toEqual(['out.ndjson']);
  });
});

describe('fork --out in a folder that does not exist yet', () => {
  it('creates the folder as run does, and the child verifies', { timeout: 60_000 }, async () => {
    const out = join(dir, 'missing', 'dir', 'x.ndjson');
    const r = await cli(['fork', parent, '--at', '5', '--seed', '3', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const verify = await cli(['replay', out, '--verify', '--quiet']);
    expect(verify.code, verify.stderr).toBe(0);
  });

  it('a --out below a file is one line, exit 2, with a hint', { timeout: 60_000 }, async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const r = await cli(['fork', parent, '--at', '5', '--out', join(file, 'x.ndjson')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/is a file, not a directory\nhint: /);
    expect(hasStack(r.stderr)).toBe(false);
  });
});
