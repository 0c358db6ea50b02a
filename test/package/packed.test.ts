// The package as a user gets it: `npm pack` of this checkout, installed into a fresh project
// in a temporary folder, used there as a library and through its `grapevine` command.
//
// Offline: `npm install --offline <tarball>` cannot work from the cache that `npm ci` fills,
// because npm ci caches the dependencies' tarballs but not their registry metadata, which a
// plain install needs to resolve version ranges (it fails with ENOTCACHED). So the project
// gets a lock file that pins exactly the versions of this checkout's package-lock.json (the
// production ones, with their integrity hashes) and installs with `npm ci --offline`.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBPATH_WORLD, WILSON_3_OF_10 } from '../cli/subpath-world-fixture.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const exec = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const ROOT = resolve('.');

interface LockEntry {
  dev?: boolean;
  link?: boolean;
  [key: string]: unknown;
}

/** A lock file for a project that depends on the tarball only, with this checkout's versions. */
function projectLock(tarball: string, integrity: string): object {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const self = lock.packages[''];
  const packages: Record<string, unknown> = {
    '': { name: 'user-project', dependencies: { grapevine: `file:${tarball}` } },
    'node_modules/grapevine': {
      version: self.version,
      resolved: `file:${tarball}`,
      integrity,
      dependencies: self.dependencies,
      bin: self.bin,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages))
    if (path && !entry.dev && !entry.link) packages[path] = entry;
  return { name: 'user-project', lockfileVersion: 3, requires: true, packages };
}

let dir: string | undefined;
let project: string;

beforeAll(async () => {
  dir = tempDir('pack');
  // dist/ is fresh (test/support/build-fresh.ts): pack it as it is, without a second build.
  const packed = await exec(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: ROOT,
  });
  const [{ filename, integrity, files }] = JSON.parse(packed.stdout);
  expect(files.map((f: { path: string }) => f.path)).toContain('dist/src/index.d.ts');
  project = join(dir, 'project');
  mkdirSync(project);
  const tarball = `../${filename}`;
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, dependencies: { grapevine: `file:${tarball}` } }),
  );
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(projectLock(tarball, integrity)));
  await exec(npm, ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: project });
}, 600_000);

describe('the packed package, installed in a fresh project', () => {
  it('ships the compiled engine, its types, the worlds and their data, and no tests or sources', async () => {
    const pkg = join(project, 'node_modules', 'grapevine');
    expect(readdirSync(pkg).sort()).toEqual(['README.md', 'bin', 'dist', 'docs', 'package.json']);
    expect(readdirSync(join(pkg, 'dist', 'worlds', 'sotopia', 'data'))).toContain('agent_profiles.jsonl');
    const lib = await exec(
      process.execPath,
      ['--input-type=module', '-e', "const g = await import('grapevine'); console.log(typeof g.defineWorld)"],
      { cwd: project },
    );
    expect(lib.stdout.trim()).toBe('function');
  });

  it('is a library with subpath entries, each with its types, and no other subpath', async () => {
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'grapevine', 'package.json'), 'utf8'));
    const subpaths = Object.keys(pkg.exports).filter((k) => k !== '.' && k !== './package.json');
    expect(subpaths.sort()).toEqual(['./analysis', './cli', './llm', './replay', './sweep']);
    for (const [sub, name] of [
      ['analysis', 'wilson'],
      ['cli', 'Progress'],
      ['llm', 'decideStructured'],
      ['replay', 'readLog'],
      ['sweep', 'runSweep'],
    ]) {
      const code = `const m = await import('grapevine/${sub}'); console.log(typeof m.${name})`;
      const r = await exec(process.execPath, ['--input-type=module', '-e', code], { cwd: project });
      expect(r.stdout.trim(), sub).toBe('function');
      expect(readdirSync(join(project, 'node_modules', 'grapevine', 'dist', 'src', 'public'))).toContain(
        `${sub}.d.ts`,
      );
    }
    const internal = exec(
      process.execPath,
      ['--input-type=module', '-e', "await import('grapevine/src/core/rng.js')"],
      {
        cwd: project,
      },
    );
    await expect(internal).rejects.toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it('runs a built-in world that reads shipped data (town-square personas)', async () => {
    const bin = join(project, 'node_modules', '.bin', 'grapevine');
    const r = await cli(['run', 'town-square', '--ticks', '2', '--out', 'ts.ndjson', '--json'], {
      cwd: project,
      bin: bin,
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ world: 'town-square', ticks: 2 });
  });

  it("checks and runs a user's world file that imports 'grapevine'", async () => {
    copyFileSync(resolve('docs/examples/bounded-confidence.ts'), join(project, 'bounded-confidence.ts'));
    const bin = join(project, 'node_modules', '.bin', 'grapevine');
    const check = await cli(['check', './bounded-confidence.ts'], { cwd: project, bin: bin });
    expect(check).toMatchObject({ code: 0, stderr: '' });
    const run = await cli(['run', './bounded-confidence.ts', '--out', 'bc.ndjson', '--json'], {
      cwd: project,
      bin: bin,
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ world: 'bounded-confidence', ticks: 30 });
    // `check` type-checks the file with TypeScript: ~10 CPU-s, past a minute on a loaded machine
  }, 300_000);

  it("checks and runs a user's world file that imports subpath entries", async () => {
    writeFileSync(join(project, 'subpaths.ts'), SUBPATH_WORLD);
    const bin = join(project, 'node_modules', '.bin', 'grapevine');
    const check = await cli(['check', './subpaths.ts'], { cwd: project, bin: bin });
    expect(check).toMatchObject({ code: 0, stderr: '' });
    const run = await cli(['run', './subpaths.ts', '--ticks', '1', '--out', 'sp.ndjson', '--json'], {
      cwd: project,
      bin: bin,
    });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const { summary } = JSON.parse(run.stdout);
    expect(summary.lo).toBeCloseTo(WILSON_3_OF_10.lo, 4);
    expect(summary.shared).toBe(true);
  }, 300_000);

  it('is used from any folder: its command on the PATH (as a global install puts it) and through npx', async () => {
    // a folder of its own, outside the project: only the installed command leads to grapevine
    const elsewhere = tempDir('elsewhere');
    copyFileSync(resolve('docs/examples/misinformation.ts'), join(elsewhere, 'misinformation.ts'));
    const bin = join(project, 'node_modules', '.bin');
    const path = `${bin}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`;
    const onPath = (args: string[]) =>
      exec('grapevine', args, { cwd: elsewhere, env: { ...process.env, PATH: path } });
    const check = await onPath(['check', './misinformation.ts']);
    expect(check.stdout).toMatch(/^executor columnar: /m);
    const run = await onPath(['run', './misinformation.ts', '--set', 'n=300', '--out', 'm.ndjson', '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ world: 'misinformation', executor: { kind: 'columnar' } });
    // npx, from a folder of the project that is not its root, finds the project's command
    const analysis = join(project, 'analysis');
    mkdirSync(analysis, { recursive: true });
    const npx = await exec(
      process.platform === 'win32' ? 'npx.cmd' : 'npx',
      ['--no-install', 'grapevine', '--version'],
      {
        cwd: analysis,
      },
    );
    expect(npx.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  }, 300_000);
});
