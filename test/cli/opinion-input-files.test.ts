import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

// Issue 15 item 19 for the opinion world's per-agent files: opinionsFile and
// susceptibilityFile named by a relative path are found beside the log by their recorded
// sha256 when the log is replayed from another folder, and a changed file is refused (exit 2).
function values(n: number, f: (i: number) => number): string {
  return `${Array.from({ length: n }, (_, i) => `${i},${f(i)}`).join('\n')}\n`;
}

describe('opinion input files named by a relative path', () => {
  it('replay from another folder finds them beside the log, and refuses a changed one', async () => {
    const root = tempDir('opinion-files');
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(
      join(a, 'x.csv'),
      values(10, (i) => i / 10),
    );
    writeFileSync(
      join(a, 'l.csv'),
      values(10, () => 0.5),
    );
    const set = [
      'model=friedkin-johnsen',
      'n=10',
      'network=ring-lattice',
      'k=2',
      'initial=file',
      'opinionsFile=x.csv',
      'susceptibility=file',
      'susceptibilityFile=l.csv',
    ];
    const run = await cli(
      ['run', 'opinion', ...set.flatMap((s) => ['--set', s]), '--ticks', '3', '--out', 'o.ndjson', '--quiet'],
      { cwd: a, timeoutMs: 60_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const log = join(a, 'o.ndjson');
    const replay = await cli(['replay', log, '--verify'], { cwd: b, timeoutMs: 60_000 });
    expect(replay.code, replay.stderr).toBe(0);

    writeFileSync(
      join(a, 'l.csv'),
      values(10, () => 0.25),
    );
    const changed = await cli(['replay', log, '--verify'], { cwd: b, timeoutMs: 60_000 });
    expect(changed.hung).toBe(false);
    expect(changed.code, changed.stderr).toBe(2);
    expect(changed.stderr).toMatch(
      /susceptibilityFile l\.csv: .* has sha256 [0-9a-f]{12}…; the log recorded sha256/,
    );
    expect(hasStack(changed.stderr)).toBe(false);
  });
});
