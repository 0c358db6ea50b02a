// The ES module faces of the bundled CLI's public entries (scripts/esm-facades.mjs): what a
// user's world file gets for `grapevine` and `grapevine/<name>`. Each must export every name
// of its CommonJS entry, as the very objects the CLI holds.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = resolve('dist', 'cli');
const require = createRequire(join(CLI, 'package.json'));
const faces = readdirSync(CLI).filter((f) => f.endsWith('.mjs'));

describe('the bundle’s ES module faces', () => {
  it('exist for the public entries, not for the CLI, its worlds or its chunks', () => {
    const subpaths = readdirSync(resolve('src', 'public')).map((f) => f.replace(/\.ts$/, '.mjs'));
    expect(faces.sort()).toEqual(['index.mjs', ...subpaths].sort());
  });

  it.each(faces)('%s exports every name of its CommonJS entry, as the same objects', async (face) => {
    const cjs = require(`./${face.replace(/\.mjs$/, '.js')}`) as Record<string, unknown>;
    const esm = (await import(pathToFileURL(join(CLI, face)).href)) as Record<string, unknown>;
    const names = Object.keys(cjs).filter((n) => n !== '__esModule');
    expect(names.length).toBeGreaterThan(0);
    expect(Object.keys(esm).sort()).toEqual(names.sort());
    for (const n of names) expect(esm[n], n).toBe(cjs[n]);
  });
});
