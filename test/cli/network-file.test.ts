import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../fork/helpers.ts';
import { cli } from './run-cli.ts';

// Issue 15 item 19: a log whose run read a network file by a relative path reruns from
// another folder (the file is found beside the log by its recorded sha256), and
// --network-file gives the file elsewhere, refused (exit 2, both hashes) if its bytes differ.
function ringCsv(): string {
  const rows = ['source,target'];
  for (let i = 0; i < 30; i++) rows.push(`${i},${(i + 1) % 30}`, `${i},${(i + 7) % 30}`);
  return `${rows.join('\n')}\n`;
}

describe('a relative networkFile', () => {
  it('reruns from another folder, with --network-file, and refuses a file with other bytes', async () => {
    const root = tempDir('network-file');
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, 'edges.csv'), ringCsv());
    const set = ['n=30', 'network=csv', 'networkFile=edges.csv', 'spreaders=2', 'insiders=2'];
    const run = await cli(
      ['run', 'rumor', ...set.flatMap((s) => ['--set', s]), '--ticks', '4', '--out', 'run.ndjson', '--quiet'],
      { cwd: a, timeoutMs: 60_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const log = join(a, 'run.ndjson');
    const replay = await cli(['replay', log, '--verify'], { cwd: b, timeoutMs: 60_000 });
    expect(replay.code, replay.stderr).toBe(0);

    copyFileSync(join(a, 'edges.csv'), join(b, 'same.csv'));
    writeFileSync(join(b, 'other.csv'), `${ringCsv()}0,15\n`);
    const same = await cli(['replay', log, '--verify', '--network-file', 'same.csv'], {
      cwd: b,
      timeoutMs: 60_000,
    });
    expect(same.code, same.stderr).toBe(0);
    const other = await cli(['inspect', log, '--agent', '1', '--network-file', 'other.csv'], {
      cwd: b,
      timeoutMs: 60_000,
    });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /--network-file other\.csv has sha256 [0-9a-f]{12}…, but the log recorded sha256 [0-9a-f]{12}…/,
    );
    expect(other.stderr).not.toMatch(/\n\s+at /);
  });
});
