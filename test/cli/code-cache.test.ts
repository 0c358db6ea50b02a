import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const RUN = ['run', 'rumor', '--set', 'n=500', '--seed', '3', '--json'];

interface Report {
  files: number;
  cached: number;
  rejected: number;
}

function report(stderr: string): Report {
  const line = /^code cache: (\{.*\})$/m.exec(stderr);
  if (!line) throw new Error(`no code cache report in: ${stderr}`);
  return JSON.parse(line[1]) as Report;
}

/** The CLI under a V8 flag the build's warm-up run did not have. */
function withFlag(args: readonly string[]) {
  return cli(args, { nodeArgs: ['--stack-size=900'], env: { GRAPEVINE_CODE_CACHE: 'report' } });
}

describe('the code cache of the bundled CLI', () => {
  it('compiles every file a run loads from the cache, and a refused cache changes nothing', async () => {
    const dir = tempDir('cache');
    const cachedRun = await cli([...RUN, '--out', join(dir, 'a.ndjson')], {
      env: { GRAPEVINE_CODE_CACHE: 'report' },
    });
    expect(cachedRun.code).toBe(0);
    const cached = report(cachedRun.stderr);
    expect(cached.files).toBeGreaterThan(3);
    expect(cached).toEqual({ files: cached.files, cached: cached.files, rejected: 0 });

    const plain = await withFlag([...RUN, '--out', join(dir, 'b.ndjson')]);
    expect(plain.code).toBe(0);
    expect(report(plain.stderr)).toEqual({ files: cached.files, cached: 0, rejected: cached.files });
    const digest = (stdout: string) => (JSON.parse(stdout) as { digest: string }).digest;
    expect(digest(plain.stdout)).toBe(digest(cachedRun.stdout));
  });

  it('--version loads the CLI entry and none of the engine', async () => {
    const r = await cli(['--version'], { env: { GRAPEVINE_CODE_CACHE: 'report' } });
    expect(r.code).toBe(0);
    const { files, cached } = report(r.stderr);
    // main.js and the chunks of the CLI's own entry; a run loads the engine's too
    expect(files).toBeLessThan(6);
    expect(cached).toBe(files);
  });
});
