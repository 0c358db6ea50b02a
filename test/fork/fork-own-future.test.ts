// Issue 17, forks that cost only their future: through the built CLI, a delta child at a
// snapshot tick keeps its parent's digest and flattens to a self-contained log with the same
// digest; an intervention read from YAML (loaded only when a fork has --intervene) acts as
// the same intervention in JSON. Sizes are small: these check behaviour, bench/ measures speed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliJson } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const RUN = [
  'run',
  'rumor',
  '--set',
  'n=3000',
  '--set',
  'model=independent-cascade',
  '--set',
  'p=0.5',
  '--set',
  'network=watts-strogatz',
  '--set',
  'k=6',
  '--set',
  'beta=0.001',
  '--ticks',
  '40',
  '--snapshot-every',
  '10',
];

describe('fork at a snapshot tick near the end (the fork-100k shape, small)', () => {
  const dir = tempDir('fork-own-future');
  const parent = join(dir, 'parent.ndjson');
  let parentDigest: string;

  beforeAll(async () => {
    const r = await cliJson([...RUN, '--out', parent]);
    parentDigest = r.digest as string;
    expect(r.ticks).toBe(40);
  }, 60_000);

  it('a delta child without intervention keeps the parent digest, and its flattening has it too', async () => {
    const child = join(dir, 'child.ndjson');
    const flat = join(dir, 'child-flat.ndjson');
    const f = await cliJson(['fork', parent, '--at', '30', '--out', child]);
    expect(f.layout).toBe('delta');
    expect(f.digest).toBe(parentDigest);
    // the child holds a header naming the parent, then only its future (ticks 31..40)
    const own = readFileSync(child, 'utf8').trim().split('\n');
    expect(JSON.parse(own[0]).delta.atTick).toBe(30);
    const ticks = own
      .slice(1)
      .map((l) => JSON.parse(l) as { type: string; t: number })
      .filter((e) => e.type === 'tick')
      .map((e) => e.t);
    expect(ticks).toEqual(Array.from({ length: 10 }, (_, k) => 31 + k));
    const fl = await cliJson(['flatten', child, '--out', flat]);
    expect(fl.digest).toBe(parentDigest);
    expect(readFileSync(flat, 'utf8').startsWith('{"delta"')).toBe(false);
    for (const log of [child, flat]) {
      const v = await cli(['replay', log, '--verify']);
      expect(v.code, v.stderr).toBe(0);
    }
  }, 60_000);

  it('an intervention file in YAML gives the child the same digest as the same one in JSON', async () => {
    const yaml = join(dir, 'tell.yaml');
    const json = join(dir, 'tell.json');
    writeFileSync(yaml, 'type: message\nto: all\nkind: tell\nitem: rumor\n');
    writeFileSync(json, JSON.stringify({ type: 'message', to: 'all', kind: 'tell', item: 'rumor' }));
    const a = await cliJson([
      'fork',
      parent,
      '--at',
      '30',
      '--intervene',
      yaml,
      '--out',
      join(dir, 'y.ndjson'),
    ]);
    const b = await cliJson([
      'fork',
      parent,
      '--at',
      '30',
      '--intervene',
      json,
      '--out',
      join(dir, 'j.ndjson'),
    ]);
    expect(a.digest).toBe(b.digest);
    expect(a.digest).not.toBe(parentDigest);
  }, 60_000);

  it('a YAML intervention file that cannot be parsed is one clear exit-2 error', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'type: message\n  to: [all');
    const r = await cli(['fork', parent, '--at', '30', '--intervene', bad, '--out', join(dir, 'bad.ndjson')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.yaml');
  }, 60_000);
});
