// Where runs go by default (replays/), and what an old or future log format gets.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { reChain } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

// The default folder is relative to the working directory: that run is a real process started
// in a fresh folder. The format check runs in this process (absolute paths; what replay decides).

describe('default output and log formats', () => {
  it('a run without --out writes replays/<world>-s<seed>-<time>.ndjson', async () => {
    const dir = tempDir('replays');
    const r = await cli(['run', 'rumor', '--set', 'n=200', '--seed', '7', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const files = readdirSync(join(dir, 'replays')).sort();
    const [file] = files;
    expect(file).toMatch(/^rumor-s7-\d{8}-\d{6}\.ndjson$/);
    // beside the log, its verification index (written by the run, for forks)
    expect(files).toEqual([file, `${file}.verified`]);
    expect(JSON.parse(r.stdout).log).toBe(join('replays', file));
  });

  it('a log of another format fails with both format numbers (exit 2)', async () => {
    const dir = tempDir('format');
    const log = join(dir, 'now.ndjson');
    expect((await cliChecked(['run', 'rumor', '--set', 'n=200', '--out', log, '--quiet'])).code).toBe(0);
    const raw = readFileSync(log, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(raw[0]);
    raw[0] = JSON.stringify({ ...header, format: 'grapevine-log/9' });
    const future = join(dir, 'future.ndjson');
    writeFileSync(future, reChain(raw));
    const r = await cliChecked(['replay', future, '--verify']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `grapevine: ${future} was written by format 9; this grapevine reads formats 1, 2 and 3`,
    );
  });
});
