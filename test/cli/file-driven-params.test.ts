import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { ringCsv } from '../support/network-file.ts';
import { tempDir } from '../support/temp-dir.ts';

// Issue 15, "every accepted input is applied": a parameter that a file overrides (n, the
// generator's k/beta/m) or a file parameter that the run's settings never read is refused
// with exit 2 naming it, before any log is written, instead of being accepted and ignored.
const CSV = [
  '--set',
  'network=csv',
  '--set',
  'networkFile=edges.csv',
  '--set',
  'spreaders=1',
  '--set',
  'insiders=1',
];

describe('parameters a file decides', () => {
  it('are refused when given explicitly and not applied', async () => {
    const dir = tempDir('file-driven');
    writeFileSync(join(dir, 'edges.csv'), ringCsv({ chord: 0 }));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ params: { n: 5 } }));
    const cases: [string[], RegExp][] = [
      [
        ['rumor', ...CSV, '--config', 'config.json'],
        /n=5 is not applied: the population comes from networkFile \(30 agents\)/,
      ],
      [
        ['rumor', ...CSV, '--set', 'n=30', '--set', 'k=4'],
        /k is not applied: the network comes from networkFile/,
      ],
      [
        ['rumor', '--set', 'n=30', '--set', 'networkFile=edges.csv'],
        /networkFile is given but not read: the file is read only with network=csv/,
      ],
      [
        ['opinion', '--set', 'n=20', '--set', 'opinionsFile=x.csv'],
        /opinionsFile is given but not read: the file is read only with initial=file/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['run', ...args, '--ticks', '2', '--out', 'run.ndjson', '--quiet'], {
        cwd: dir,
        timeoutMs: 60_000,
      });
      expect(r.hung).toBe(false);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
      expect(hasStack(r.stderr)).toBe(false);
      expect(existsSync(join(dir, 'run.ndjson'))).toBe(false);
    }
    // a sweep checks every point before its first run
    const sweep = await cli(
      ['sweep', 'rumor', ...CSV, '--grid', 'n=30,5', '--ticks', '2', '--out', 'sw', '--quiet'],
      {
        cwd: dir,
        timeoutMs: 60_000,
      },
    );
    expect(sweep.code, sweep.stderr).toBe(2);
    expect(sweep.stderr).toMatch(/n=5 is not applied: the population comes from networkFile \(30 agents\)/);
    expect(hasStack(sweep.stderr)).toBe(false);
    expect(existsSync(join(dir, 'sw', 'runs'))).toBe(false);
  });
});
