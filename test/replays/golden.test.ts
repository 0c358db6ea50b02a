import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const golden = resolve('replays/golden');

// Logs recorded by earlier versions of grapevine (the version is in each file name). Every
// later version must rerun them byte for byte: this is the promise that a published log
// stays verifiable. The commands run in this process (the CLI's `main`, as bin/grapevine.mjs
// calls it): what is tested is what they decide, and a process start per log cost ~0.3 CPU-s.
const logs = readdirSync(golden)
  .filter((f) => /\.ndjson(\.gz)?$/.test(f))
  .sort();

describe('golden replays from earlier versions', () => {
  it('has a golden log of every built-in world', () => {
    const worlds = new Set(logs.map((f) => f.split('-')[0]));
    for (const w of ['rumor', 'town', 'sotopia', 'survey', 'epidemic']) expect(worlds.has(w)).toBe(true);
  });

  it('has a log of every built-in world in log format 2 (grapevine-log/2)', () => {
    const format2 = new Set(logs.filter((f) => /-format2\.ndjson/.test(f)).map((f) => f.split('-')[0]));
    for (const w of ['rumor', 'town', 'sotopia', 'survey', 'opinion', 'epidemic'])
      expect(format2.has(w)).toBe(true);
  });

  it('has a log in log format 3 (grapevine-log/3) of every world whose agents keep JSON memory', () => {
    const format3 = new Set(logs.filter((f) => /-format3\.ndjson/.test(f)).map((f) => f.split('-')[0]));
    for (const w of ['rumor', 'town', 'sotopia', 'survey']) expect(format3.has(w)).toBe(true);
  });

  it('an unchanged standalone fork of a format-2 log restores and runs on in format 2 (same digest as its parent)', async () => {
    const parent = join(golden, 'town-square-v0.1-format2.ndjson.gz');
    const child = join(tempDir('f2'), 'child.ndjson');
    const fork = await cliInProcess(['fork', parent, '--at', '4', '--standalone', '--out', child]);
    expect(fork.code, fork.stderr).toBe(0);
    expect(JSON.parse(readFileSync(child, 'utf8').split('\n')[0]).format).toBe('grapevine-log/2');
    const a = await cliInProcess(['replay', parent, '--verify', '--json']);
    const b = await cliInProcess(['replay', child, '--verify', '--json']);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout).digest).toBe(JSON.parse(a.stdout).digest);
  });

  it.each(logs)('%s verifies', async (file) => {
    const r = await cliInProcess(['replay', join(golden, file), '--verify', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).verified).toBe(true);
  });
});
