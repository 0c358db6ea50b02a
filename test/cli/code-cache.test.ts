import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { USER_SIR_WORLD } from '../support/user-sir-world.ts';

const RUN = ['run', 'rumor', '--set', 'n=500', '--seed', '3', '--json'];

interface Report {
  files: number;
  cached: number;
  rejected: number;
  /** Present when TypeScript's compiler was loaded: whether its cache was used. */
  typescript?: boolean;
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

  it("a cold type check compiles TypeScript's compiler from its cache; a refused one checks the same", async () => {
    const dir = tempDir('cache-check');
    // a text of its own, so that no other test's check has been cached for it
    writeFileSync(join(dir, 'sir.ts'), `${USER_SIR_WORLD}\n// code-cache test\n`);
    const check = (cache: string, nodeArgs: string[] = []) =>
      cli(['check', './sir.ts'], {
        cwd: dir,
        nodeArgs,
        env: { GRAPEVINE_CODE_CACHE: 'report', GRAPEVINE_CACHE_DIR: join(dir, cache) },
      });
    const cached = await check('a');
    expect(cached.code, cached.stderr).toBe(0);
    expect(report(cached.stderr)).toMatchObject({ typescript: true, rejected: 0 });
    const refused = await check('b', ['--stack-size=900']);
    expect(refused.code, refused.stderr).toBe(0);
    expect(report(refused.stderr).typescript).toBe(false);
    expect(refused.stdout).toBe(cached.stdout);
    // a warm check (the same text, the same cache) does not load the compiler at all
    const warm = await check('a');
    expect(warm.code).toBe(0);
    expect(report(warm.stderr).typescript).toBeUndefined();
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
