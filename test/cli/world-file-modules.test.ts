// A world split over several files, as a researcher's model grows: the world file imports a
// local module that itself imports 'grapevine', in a folder with no package.json (so the
// TypeScript loader compiles the helper as CommonJS). The compiled CLI type-checks, runs and
// verifies it there, and the helper's 'grapevine' is the running engine.
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { writeSplitWorld } from './split-world-fixture.ts';

let dir: string;

beforeAll(() => {
  dir = tempDir('world-modules');
  writeSplitWorld(dir);
});

describe('a world file that imports a local module importing grapevine', () => {
  it('is checked, runs and its log verifies, with no package.json in its folder', async () => {
    const check = await cli(['check', './main.ts'], { cwd: dir });
    expect(check.code, check.stderr).toBe(0);
    const run = await cli(['run', './main.ts', '--out', 'split.ndjson', '--json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.world).toBe('gossip-split');
    expect(summary.events).toBeGreaterThan(0);
    const alone = await cli(['run', './lib/gossip.ts', '--out', 'alone.ndjson', '--json'], { cwd: dir });
    expect(alone.code, alone.stderr).toBe(0);
    // the same model through the helper: the same dynamics as the helper run on its own
    expect(summary.metrics).toEqual(JSON.parse(alone.stdout).metrics);
    const replay = await cli(['replay', 'split.ndjson', '--verify', '--world', './main.ts'], { cwd: dir });
    expect(replay.code, replay.stderr).toBe(0);
  });
});
