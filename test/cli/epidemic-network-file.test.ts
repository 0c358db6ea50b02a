import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { ringCsv } from '../support/network-file.ts';
import { tempDir } from '../support/temp-dir.ts';

// Issue 15 item 19 for the epidemic world: it reads a network file (network=csv) as rumor and
// opinion do, records the file's sha256 in the header's inputs, and a replay after the file
// changed is refused (exit 2) instead of rerunning another network. Its own beta (the
// transmission probability, not a generator's) stays settable with a file network.
describe('epidemic with network=csv', () => {
  it('records the file sha256 and refuses a replay once the file changed', async () => {
    const dir = tempDir('epidemic-csv');
    const csv = join(dir, 'edges.csv');
    writeFileSync(csv, ringCsv({ n: 25, chord: 5 }));
    const set = ['network=csv', 'networkFile=edges.csv', 'beta=0.9', 'initial=2'];
    const run = await cli(
      ['run', 'epidemic', ...set.flatMap((s) => ['--set', s]), '--ticks', '5', '--out', 'e.ndjson', '--json'],
      { cwd: dir, timeoutMs: 60_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).size).toBe(25);
    const header = JSON.parse(readFileSync(join(dir, 'e.ndjson'), 'utf8').split('\n')[0]);
    const sha = createHash('sha256').update(readFileSync(csv)).digest('hex');
    expect(header.inputs).toEqual({ networkFile: sha });
    expect(header.params.beta).toBe(0.9);

    writeFileSync(csv, ringCsv({ n: 25, chord: 5, extra: '0,12\n' }));
    const replay = await cli(['replay', 'e.ndjson', '--verify'], { cwd: dir, timeoutMs: 60_000 });
    expect(replay.hung).toBe(false);
    expect(replay.code, replay.stderr).toBe(2);
    expect(replay.stderr).toContain(`the log recorded sha256 ${sha.slice(0, 12)}`);
    expect(hasStack(replay.stderr)).toBe(false);
  });
});
