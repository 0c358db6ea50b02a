import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, hasStack } from '../support/cli.ts';
import { ringCsv, runOnRelativeNetworkFile } from '../support/network-file.ts';

// Issue 15 item 19, the commands that read a log but did not take --network-file: report,
// export and view rebuild the world too, so they take the override, check its sha256, and
// refuse other bytes (exit 2, one line).
describe('--network-file on report, export and view', () => {
  it('rebuilds the world from the named file and refuses a file with other bytes', async () => {
    const { a, b } = await runOnRelativeNetworkFile('network-file-readers');
    // the log alone in another folder: its network file is only reachable through --network-file
    copyFileSync(join(a, 'run.ndjson'), join(b, 'run.ndjson'));
    writeFileSync(join(b, 'other.csv'), ringCsv({ extra: '0,15\n' }));
    const agents = ['export', 'run.ndjson', '--what', 'agents', '--quiet'];
    const exported = await cli([...agents, '--network-file', join(a, 'edges.csv')], {
      cwd: b,
      timeoutMs: 60_000,
    });
    expect(exported.code, exported.stderr).toBe(0);
    expect(existsSync(join(b, 'run.agents.csv'))).toBe(true);

    for (const args of [
      [...agents, '--out', 'x.csv'],
      ['report', 'run.ndjson', '--quiet'],
      ['view', 'run.ndjson', '--port', '0'],
    ]) {
      const other = await cli([...args, '--network-file', 'other.csv'], { cwd: b, timeoutMs: 60_000 });
      expect(other.code, `${args[0]}: ${other.stderr}`).toBe(2);
      expect(other.stderr).toMatch(
        /--network-file other\.csv has sha256 [0-9a-f]{12}…, but the log recorded/,
      );
      expect(hasStack(other.stderr)).toBe(false);
      expect(other.hung).toBe(false);
    }
    expect(existsSync(join(b, 'x.csv'))).toBe(false);
    expect(existsSync(join(b, 'run.report.html'))).toBe(false);
  });
});
