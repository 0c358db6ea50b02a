// A world split over two files records the sha256 of the module it imports, and a rerun of
// its log names a changed module instead of running it: the world file and its helper are
// written to a temporary folder outside the checkout, run with the compiled CLI, the helper
// edited, and every log-reading command that imports the world refuses it.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/index.ts';
import { cli } from '../support/cli.ts';
import { lines, reChain } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';
import { SPLIT_MAIN, writeSplitWorld } from './split-world-fixture.ts';

let dir: string;
let helper: Buffer;

function header(log: string): { world: { source: Record<string, unknown> } } {
  return JSON.parse(lines(join(dir, log))[0]);
}

beforeAll(async () => {
  dir = tempDir('module-hashes');
  helper = writeSplitWorld(dir);
  const run = await cli(['run', './main.ts', '--out', 'split.ndjson', '--ticks', '20'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
});

describe("a world file's local modules", () => {
  it('are recorded in the header with their sha256; a world of one file records none', async () => {
    const source = header('split.ndjson').world.source;
    expect(source.sha256).toBe(sha256Hex(SPLIT_MAIN));
    expect(source.modules).toEqual({ './lib/gossip.ts': sha256Hex(helper) });
    copyFileSync(join(dir, 'lib', 'gossip.ts'), join(dir, 'alone.ts'));
    const alone = await cli(['run', './alone.ts', '--out', 'alone.ndjson', '--ticks', '5'], { cwd: dir });
    expect(alone.code, alone.stderr).toBe(0);
    expect(header('alone.ndjson').world.source).not.toHaveProperty('modules');
  });

  it('are recorded the same without a type check, and by the runs of a sweep', async () => {
    const modules = header('split.ndjson').world.source.modules;
    const cache = { GRAPEVINE_CACHE_DIR: join(dir, 'fresh-cache') }; // no remembered check: the compiler resolves
    const unchecked = await cli(
      ['run', './main.ts', '--no-check', '--out', 'unchecked.ndjson', '--ticks', '20'],
      {
        cwd: dir,
        env: cache,
      },
    );
    expect(unchecked.code, unchecked.stderr).toBe(0);
    expect(header('unchecked.ndjson').world.source.modules).toEqual(modules);
    // the same bytes as the checked run: the record does not depend on how it was found
    expect(readFileSync(join(dir, 'unchecked.ndjson'), 'utf8').split('\n').slice(1)).toEqual(
      readFileSync(join(dir, 'split.ndjson'), 'utf8').split('\n').slice(1),
    );
    const sweep = await cli(['sweep', './main.ts', '--replicates', '2', '--ticks', '5', '--out', 'sw'], {
      cwd: dir,
    });
    expect(sweep.code, sweep.stderr).toBe(0);
    const logs = readdirSync(join(dir, 'sw'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ndjson'),
    );
    expect(logs.length).toBe(2);
    for (const log of logs) expect(header(join('sw', log)).world.source.modules).toEqual(modules);
  });

  it('verify unchanged, and a changed helper is named with both hashes before it runs', async () => {
    const ok = await cli(['replay', 'split.ndjson', '--verify', '--world', './main.ts'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    const edited = Buffer.concat([helper, Buffer.from('\nglobalThis.ranEditedHelper = 1;\n')]);
    writeFileSync(join(dir, 'lib', 'gossip.ts'), edited);
    try {
      for (const args of [
        ['replay', 'split.ndjson', '--verify', '--world', './main.ts'],
        ['replay', 'split.ndjson', '--verify', '--world', './main.ts', '--no-check'],
        ['fork', 'split.ndjson', '--at', '5', '--world', './main.ts', '--out', 'child.ndjson'],
      ]) {
        const r = await cli(args, { cwd: dir });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain('./lib/gossip.ts');
        expect(r.stderr).toContain(sha256Hex(edited).slice(0, 12));
        expect(r.stderr).toContain(sha256Hex(helper).slice(0, 12));
        expect(r.stderr.trim().split('\n')[0]).toMatch(/not the one that wrote the log/);
      }
    } finally {
      writeFileSync(join(dir, 'lib', 'gossip.ts'), helper);
    }
    const again = await cli(['replay', 'split.ndjson', '--verify', '--world', './main.ts'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
  });

  it('a header without the field (as logs were before) verifies as a world of one file', async () => {
    const raw = lines(join(dir, 'split.ndjson'));
    const head = JSON.parse(raw[0]);
    delete head.world.source.modules;
    raw[0] = JSON.stringify(head);
    writeFileSync(join(dir, 'old.ndjson'), reChain(raw));
    const r = await cli(['replay', 'old.ndjson', '--verify', '--world', './main.ts'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
  });

  it('a crafted record naming a file outside the relative paths, or no sha256, is refused', async () => {
    for (const modules of [{ '/etc/passwd': 'a'.repeat(64) }, { './lib/gossip.ts': 'not-a-hash' }, []]) {
      const raw = lines(join(dir, 'split.ndjson'));
      const head = JSON.parse(raw[0]);
      head.world.source.modules = modules;
      raw[0] = JSON.stringify(head);
      writeFileSync(join(dir, 'crafted.ndjson'), reChain(raw));
      const r = await cli(['replay', 'crafted.ndjson', '--verify', '--world', './main.ts'], { cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/world\.source\.modules/);
    }
  });
});
