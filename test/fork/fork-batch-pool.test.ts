// Fork batches on the worker pool (issue 17's batch item): `fork --replicates` and
// multi-point `--at` batches write their children on worker threads (with one thread, one
// after another in the command's own thread); the children are the same bytes with one
// thread and with two, and each equals the child a single fork writes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliJson } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { type BatchChild, verifyInProcess, write } from './helpers.ts';

const dir = tempDir('fork-batch-pool');
const parent = join(dir, 'parent.ndjson');
const SEED = 3;

let iv: string;
const batches: Record<string, BatchChild[]> = {};

beforeAll(async () => {
  iv = write(dir, 'tell-all.yaml', 'type: message\nto: all\nkind: tell\nitem: rumor\n');
  await cliJson([
    ...['run', 'rumor', '--set', 'n=300', '--seed', String(SEED), '--ticks', '12'],
    ...['--snapshot-every', '4', '--out', parent],
  ]);
  for (const workers of ['1', '2']) {
    const out = join(dir, `w${workers}`);
    const r = await cliJson([
      ...['fork', parent, '--at', '5,9', '--intervene', iv, '--replicates', '2'],
      ...['--workers', workers, '--out', out],
    ]);
    batches[workers] = r.children as BatchChild[];
  }
});

describe('fork batch on the worker pool', () => {
  it('writes every child, in batch order, with the same bytes for 1 and 2 worker threads', () => {
    const one = batches['1'];
    expect(one.map((c) => [c.atTick, c.arm, c.replicate])).toEqual([
      [5, 'treated', 1],
      [5, 'control', 1],
      [5, 'treated', 2],
      [5, 'control', 2],
      [9, 'treated', 1],
      [9, 'control', 1],
      [9, 'treated', 2],
      [9, 'control', 2],
    ]);
    expect(batches['2'].map((c) => c.digest)).toEqual(one.map((c) => c.digest));
    // different futures: the treated and control arms and the replicates differ
    expect(new Set(one.map((c) => c.digest)).size).toBe(one.length);
    for (const c of one) {
      const twin = c.log.replace(`${join(dir, 'w1')}`, join(dir, 'w2'));
      expect(readFileSync(twin)).toEqual(readFileSync(c.log));
    }
  });

  it('writes children that verify, each equal to the same child forked alone', async () => {
    const treated = batches['2'].find((c) => c.atTick === 9 && c.arm === 'treated' && c.replicate === 2)!;
    expect(await verifyInProcess(treated.log)).toBe(treated.digest);
    // replicate k of a batch is reseeded with parentSeed * 1000 + k
    const alone = await cliJson([
      ...['fork', parent, '--at', '9', '--intervene', iv, '--seed', String(SEED * 1000 + 2)],
      ...['--out', join(dir, 'alone.ndjson')],
    ]);
    expect(alone.digest).toBe(treated.digest);
  });
});
