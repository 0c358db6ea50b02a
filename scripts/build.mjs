#!/usr/bin/env node
// Builds the package into dist/: the TypeScript of src/ and worlds/ compiled to JavaScript
// with type declarations (tsc, tsconfig.build.json), then the data files the built worlds
// read beside them, at the same relative paths as in the sources (so that a world's
// `new URL('./data', import.meta.url)` resolves in both layouts). dist/ is removed first,
// so a deleted source never lingers as stale JavaScript.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle-cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

/** Data files that the built code reads at run time, relative to the package root. */
const ASSETS = [
  'worlds/sotopia/data',
  'worlds/sotopia/templates',
  'worlds/sotopia/protocols/contract-grapevine.json',
  'worlds/survey/data',
  'agents/personas.json',
];

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// `--check-alongside`, for `npm test`: the type-check of everything (`tsc --noEmit`:
// src, worlds, test, bench) runs in a second process while this one builds, and the build
// fails if it fails. tsc is single-threaded: on two cores the check no longer adds its time
// before the build. The build's own tsc then only emits (as with --no-check).
const alongside = process.argv.includes('--check-alongside');
const typecheck = alongside ? checkInBackground() : undefined;
// `--no-check`: emit without type-checking, for a build right after a `tsc --noEmit`
// (TypeScript's own --noCheck; declarations are still written).
const noCheck = alongside || process.argv.includes('--no-check') ? ['--noCheck'] : [];
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), ...noCheck], {
  stdio: 'inherit',
});
// The CLI that bin/grapevine.mjs runs: the same sources bundled into dist/cli/ for a fast start.
await bundleCli(root);
// The viewer page (`grapevine view`): type-checked with the DOM types, then bundled by vite
// into dist/viewer/ (one static page, no network access needed when served).
execFileSync(process.execPath, [tsc, '-p', join(root, 'web/viewer/tsconfig.json'), '--noEmit'], {
  stdio: 'inherit',
});
const { build } = await import('vite');
await build({
  root: join(root, 'web/viewer'),
  base: './',
  logLevel: 'warn',
  build: { outDir: join(dist, 'viewer'), emptyOutDir: true },
});
for (const file of ASSETS) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  cpSync(join(root, file), join(dist, file), { recursive: true });
}
// The V8 code cache of the CLI's files (bin/load-cli.cjs), written by a short run of a built-in
// world so that it holds the functions a run compiles, not only those V8 compiles up front;
// and TypeScript's, written by the type check of a world file.
writeCodeCache();
if (typecheck && (await typecheck) !== 0) {
  process.stderr.write('build: the type-check (tsc --noEmit) failed, see above\n');
  process.exit(1);
}
// The freshness check of the test setup (test/support/build-fresh.ts) compares against this stamp.
writeFileSync(join(dist, '.built'), `${new Date().toISOString()}\n`);

function writeCodeCache() {
  const scratch = mkdtempSync(join(tmpdir(), 'grapevine-build-'));
  try {
    execFileSync(
      process.execPath,
      [
        join(root, 'bin', 'grapevine.mjs'),
        'run',
        'rumor',
        '--set',
        'n=2000',
        '--set',
        'model=maki-thompson',
        '--set',
        'contact=delayed',
        '--seed',
        '1',
        '--out',
        join(scratch, 'warm-up.ndjson'),
        '--quiet',
      ],
      { stdio: 'inherit', env: { ...process.env, GRAPEVINE_CODE_CACHE: 'write' } },
    );
    const world = join(scratch, 'world.ts');
    cpSync(join(root, 'docs', 'examples', 'misinformation.ts'), world);
    execFileSync(process.execPath, [join(root, 'bin', 'grapevine.mjs'), 'check', world], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, GRAPEVINE_CODE_CACHE: 'write-compiler', GRAPEVINE_CACHE_DIR: scratch },
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Starts `tsc --noEmit` on tsconfig.json; resolves to its exit code (its errors go to stderr as it prints them). */
function checkInBackground() {
  const child = spawn(process.execPath, [tsc, '--noEmit', '-p', join(root, 'tsconfig.json')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // a build step that throws ends this process: the check is not left running on its own
  process.on('exit', () => child.kill());
  return new Promise((done) => {
    child.on('error', () => done(1));
    child.on('close', (code) => done(code ?? 1));
  });
}
