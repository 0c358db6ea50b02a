#!/usr/bin/env node
// Builds the package into dist/: the TypeScript of src/ and worlds/ compiled to JavaScript
// with type declarations (tsc, tsconfig.build.json), then the data files the built worlds
// read beside them, at the same relative paths as in the sources (so that a world's
// `new URL('./data', import.meta.url)` resolves in both layouts). dist/ is removed first,
// so a deleted source never lingers as stale JavaScript.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle-cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

/** Data files that the built code reads at run time, relative to the package root. */
const ASSETS = [
  'worlds/sotopia/data',
  'worlds/sotopia/templates',
  'worlds/survey/data',
  'agents/personas.json',
];

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// `--no-check`: emit without type-checking, for `npm test`, whose `tsc --noEmit` has just
// checked the same sources (TypeScript's own --noCheck; declarations are still written).
const noCheck = process.argv.includes('--no-check') ? ['--noCheck'] : [];
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
// The freshness check of the test setup (test/support/build-fresh.ts) compares against this stamp.
writeFileSync(join(dist, '.built'), `${new Date().toISOString()}\n`);
