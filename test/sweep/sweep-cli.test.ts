import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('sweep');
/** 2 points × 3 replicates of a 200-agent independent cascade. */
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

async function sweep(out: string, ...extra: string[]) {
  const r = await cli(['sweep', ...SWEEP, '--out', out, ...extra], { timeoutMs: 120_000 });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { runs: number; ran: number; reused: number; failed: number };
}

const table = (out: string) => readFileSync(join(out, 'results.csv'), 'utf8');

describe('grapevine sweep', () => {
  it('gives the same results table with 1 and 2 workers, and Parquet holds the same rows', async () => {
    const [one, two] = [join(dir, 'w1'), join(dir, 'w2')];
    const [a, b] = await Promise.all([sweep(one, '--workers', '1'), sweep(two, '--workers', '2')]);
    expect(a).toMatchObject({ runs: 6, ran: 6, reused: 0, failed: 0 });
    expect(b).toMatchObject({ runs: 6, ran: 6 });
    expect(table(one)).toBe(table(two));
    const lines = table(one).trim().split('\n');
    expect(lines).toHaveLength(7);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[5])).size).toBe(6); // six distinct digests
    const buf = readFileSync(join(one, 'results.parquet'));
    const rows = await parquetReadObjects({
      file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length),
    });
    expect(rows.map((r) => r.digest)).toEqual(lines.slice(1).map((l) => l.split(',')[5]));
    expect(readFileSync(join(one, 'summary.csv'), 'utf8')).toMatch(
      /^point,params,outcome,n,mean,sd,ci_low,ci_high\n0,/,
    );
    expect(readFileSync(join(one, 'report.html'), 'utf8')).toContain('<svg');
    // a rerun reuses every verified log and rewrites the same table
    const again = await sweep(one, '--workers', '2');
    expect(again).toMatchObject({ ran: 0, reused: 6 });
    expect(table(one)).toBe(table(two));
  });

  it('killed (SIGKILL) and resumed, gives the table of an uninterrupted sweep', async () => {
    const whole = join(dir, 'whole');
    const killed = join(dir, 'killed');
    const long = ['--replicates', '5'];
    const done = sweep(whole, '--workers', '2', ...long);
    const first = await cli(['sweep', ...SWEEP, ...long, '--out', killed, '--workers', '1'], {
      timeoutMs: 120_000,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          const runs = join(killed, 'runs');
          if (existsSync(runs) && readdirSync(runs).length >= 3) {
            clearInterval(poll);
            child.kill('SIGKILL');
          }
        }, 20);
        child.on('close', () => clearInterval(poll));
      },
    });
    expect(first.signal).toBe('SIGKILL');
    expect(existsSync(join(killed, 'results.csv'))).toBe(false);
    const resumed = await sweep(killed, '--workers', '2', ...long);
    expect(resumed.reused).toBeGreaterThanOrEqual(2);
    expect(resumed.reused + resumed.ran).toBe(10);
    await done;
    expect(table(killed)).toBe(table(whole));
  });

  // what the command decides, in this process (support/cli-in-process.ts: nothing left open); the
  // sweeps above spawn the CLI: they run side by side, one is killed, and their work is heavy
  it('refuses another sweep in the same folder, and bad sweep files, with one line naming the problem', async () => {
    const files: [string, string, RegExp][] = [
      ['unknown.yaml', 'world: rumor\ngrids: {p: [1]}\n', /unrecognized key.*grids|grids/i],
      [
        'bad-range.yaml',
        'world: rumor\nranges: {k: {from: 5, to: 1, step: 1}}\n',
        /range k: to \(1\) is below from \(5\)/,
      ],
      ['broken.json', '{"world": "rumor", "grid": {', /not valid YAML\/JSON/],
      ['empty-grid.json', '{"world": "rumor", "grid": {"p": []}}', /grid\.p/],
    ];
    for (const [name, text, problem] of files) {
      const path = join(dir, name);
      writeFileSync(path, text);
      const r = await cliChecked(['sweep', path, '--out', join(dir, `out-${name}`)]);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(problem);
      expect(hasStack(r.stderr)).toBe(false);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
    const other = await cliChecked(['sweep', ...SWEEP, '--replicates', '2', '--out', join(dir, 'w1')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/holds another sweep/);
  });
});
