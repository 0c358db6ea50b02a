import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

// Found by walking run's error paths (issue 15, "the rest of the class"): bad input that a
// world detects only at tick 0, once the log is open (here 5 spreaders in a 5-agent
// network file), exited 2 but left a header-only log behind.
describe('run refused at tick 0', () => {
  it('exits 2 with one line and a hint, and leaves no log', async () => {
    const dir = tempDir('bad-input-cleanup');
    writeFileSync(join(dir, 'e.csv'), 'source,target\n0,1\n1,2\n2,3\n3,4\n4,0\n');
    const out = join(dir, 'run.ndjson');
    const r = await cli(
      [
        'run',
        'rumor',
        '--set',
        'network=csv',
        '--set',
        'networkFile=e.csv',
        '--ticks',
        '3',
        '--out',
        out,
        '--quiet',
      ],
      { cwd: dir, timeoutMs: 30_000 },
    );
    expect(r.hung).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^grapevine: 5 spreaders do not fit in a population of 5\nhint: .+\n$/);
    expect(existsSync(out)).toBe(false);
  });
});
