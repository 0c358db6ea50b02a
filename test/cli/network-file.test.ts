import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { ringCsv, runOnRelativeNetworkFile } from '../support/network-file.ts';

// Issue 15 item 19: a log whose run read a network file by a relative path reruns from
// another folder (the file is found beside the log by its recorded sha256), and
// --network-file gives the file elsewhere, refused (exit 2, both hashes) if its bytes differ.
describe('a relative networkFile', () => {
  it('reruns from another folder, with --network-file, and refuses a file with other bytes', async () => {
    const { a, b } = await runOnRelativeNetworkFile('network-file');
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
