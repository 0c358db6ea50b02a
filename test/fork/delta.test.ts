// Delta children through the CLI (the rumour world, 300 agents, snapshots every 10
// ticks): a fork names its parent and holds only its future; every command reads it as
// if it were whole; flattening gives the standalone bytes; a missing, edited or replaced
// parent stops every command with exit 2 naming the parent; a cut delta child resumes;
// forks of forks verify. The commands run in this process (cliChecked, one after the other, no
// resource left open): every case is about what a command decides or writes.
import { copyFileSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliChecked, cliCheckedJson } from '../support/cli-in-process.ts';
import { lines } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';
import { forgeTick, verifyCliIn } from './helpers.ts';

const dir = tempDir('fork-delta');
const parent = join(dir, 'parent.ndjson');
let parentDigest: string;
/** Several commands per case; on a loaded 2-core box each takes seconds. */
const SLOW = 240_000;

/** The `delta` field of a log's first line, if any. */
function deltaOf(path: string): Record<string, unknown> | undefined {
  return (JSON.parse(lines(path)[0]) as { delta?: Record<string, unknown> }).delta;
}

beforeAll(async () => {
  const r = await cliCheckedJson([
    'run',
    'rumor',
    '--set',
    'n=300',
    '--seed',
    '3',
    '--snapshot-every',
    '10',
    '--out',
    parent,
  ]);
  parentDigest = r.digest as string;
  expect(r.ticks as number).toBeGreaterThan(25);
}, SLOW);

describe('a delta child holds only its future', () => {
  it(
    'without intervention: the parent digest, a header naming the parent, fewer lines; flatten = --standalone bytes',
    async () => {
      const child = join(dir, 'same.ndjson');
      const standalone = join(dir, 'same-standalone.ndjson');
      const d = await cliCheckedJson(['fork', parent, '--at', '15', '--out', child]);
      const s = await cliCheckedJson(['fork', parent, '--at', '15', '--out', standalone, '--standalone']);
      expect([d.layout, s.layout]).toEqual(['delta', 'standalone']);
      expect(d.digest).toBe(parentDigest);
      expect(s.digest).toBe(parentDigest);
      const ref = deltaOf(child) as { parent: { path: string; digest: string }; atTick: number };
      expect(ref).toMatchObject({ atTick: 15, parent: { path: 'parent.ndjson', digest: parentDigest } });
      expect(deltaOf(standalone)).toBeUndefined();
      expect(lines(child).length).toBeLessThan(lines(standalone).length);
      expect(await verifyCliIn(child)).toBe(parentDigest);
      const flat = join(dir, 'same-flat.ndjson');
      const f = await cliCheckedJson(['flatten', child, '--out', flat]);
      expect(f.digest).toBe(parentDigest);
      expect(readFileSync(flat, 'utf8')).toBe(readFileSync(standalone, 'utf8'));
    },
    SLOW,
  );

  it(
    'with an intervention: the child and its flattening have the same digest, and it verifies',
    async () => {
      const child = join(dir, 'reseeded.ndjson');
      const r = await cliCheckedJson(['fork', parent, '--at', '12', '--seed', '77', '--out', child]);
      expect(r.digest).not.toBe(parentDigest);
      const flat = join(dir, 'reseeded.flat.ndjson.gz');
      const f = await cliCheckedJson(['flatten', child, '--out', flat]);
      const v = await verifyCliIn(child);
      expect(f.digest).toBe(r.digest);
      expect(v).toBe(r.digest);
      expect(await verifyCliIn(flat)).toBe(r.digest);
    },
    SLOW,
  );

  it(
    'forks of forks (a chain of deltas) verify, and flatten to the standalone chain',
    async () => {
      const a = join(dir, 'chain-a.ndjson');
      const b = join(dir, 'chain-b.ndjson');
      const c = join(dir, 'chain-c.ndjson');
      await cliCheckedJson(['fork', parent, '--at', '10', '--seed', '5', '--out', a]);
      const rb = await cliCheckedJson(['fork', a, '--at', '14', '--seed', '6', '--out', b]);
      // c forks b before b's own fork tick: its past runs through a into the parent
      const rc = await cliCheckedJson(['fork', b, '--at', '12', '--seed', '7', '--out', c]);
      expect(deltaOf(c)).toMatchObject({ parent: { path: 'chain-b.ndjson' }, atTick: 12 });
      expect([await verifyCliIn(b), await verifyCliIn(c)]).toEqual([rb.digest, rc.digest]);
      const flat = join(dir, 'chain-c.flat.ndjson');
      expect((await cliCheckedJson(['flatten', c, '--out', flat])).digest).toBe(rc.digest);
      expect(deltaOf(flat)).toBeUndefined();
    },
    SLOW,
  );

  it(
    'a batch over several ticks writes delta children that verify',
    async () => {
      const out = join(dir, 'batch');
      const r = await cliCheckedJson([
        'fork',
        parent,
        '--at',
        '10,20',
        '--replicates',
        '1',
        '--seed',
        '9',
        '--out',
        out,
      ]);
      const children = r.children as { log: string; digest: string; atTick: number; arm: string }[];
      expect(children.map((c) => [c.atTick, c.arm])).toEqual([
        [10, 'treated'],
        [10, 'control'],
        [20, 'treated'],
        [20, 'control'],
      ]);
      for (const c of children) expect(deltaOf(c.log)).toMatchObject({ atTick: c.atTick });
      expect(await verifyCliIn(children[3].log)).toBe(children[3].digest);
    },
    SLOW,
  );
});

describe('the parent must be there and be the same run', () => {
  const child = join(dir, 'moves', 'child.ndjson');
  const moved = join(dir, 'moves', 'parent.ndjson');

  beforeAll(async () => {
    mkdirSync(join(dir, 'moves'));
    copyFileSync(parent, moved);
    await cliCheckedJson(['fork', moved, '--at', '15', '--seed', '4', '--out', child]);
  }, SLOW);

  /** Every reading command on the child exits 2 with one line naming the parent. */
  async function expectAllFail(message: RegExp, every = true): Promise<void> {
    const commands = [
      () => cliChecked(['replay', child, '--verify']),
      () => cliChecked(['inspect', child, '--at', '3']),
      () => cliChecked(['report', child, '--out', join(dir, 'moves', 'r.html')]),
      () => cliChecked(['export', child, '--what', 'metrics', '--out', join(dir, 'moves', 'e.csv')]),
      () => cliChecked(['diff', child, parent]),
      () => cliChecked(['fork', child, '--at', '20', '--out', join(dir, 'moves', 'f.ndjson')]),
      () => cliChecked(['flatten', child, '--out', join(dir, 'moves', 'flat.ndjson')]),
    ];
    for (const command of every ? commands : [commands[0], commands[1], commands[6]]) {
      const r = await command();
      expect({ code: r.code, stderr: r.stderr }).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(message),
      });
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }

  it(
    'a moved parent: every command exits 2 naming it; moved back beside the child, all is well',
    async () => {
      const away = join(dir, 'away.ndjson');
      renameSync(moved, away);
      try {
        await expectAllFail(/parent log of .*child\.ndjson is missing: .*moves\/parent\.ndjson/);
      } finally {
        renameSync(away, moved);
      }
      await verifyCliIn(child);
    },
    SLOW,
  );

  it(
    'an edited parent (chain recomputed after the fork tick) is refused',
    async () => {
      const original = readFileSync(moved);
      forgeTick(moved, 20, moved);
      try {
        await expectAllFail(
          /parent log .*moves\/parent\.ndjson of .*child\.ndjson is not the run it was forked from: its digest/,
          false,
        );
      } finally {
        writeFileSync(moved, original);
      }
    },
    SLOW,
  );

  it(
    'a parent replaced by another run is refused',
    async () => {
      const original = readFileSync(moved);
      await cliCheckedJson([
        'run',
        'rumor',
        '--set',
        'n=300',
        '--seed',
        '8',
        '--snapshot-every',
        '10',
        '--out',
        moved,
        '--force',
      ]);
      try {
        const r = await cliChecked(['replay', child, '--verify']);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(
          /moves\/parent\.ndjson of .*child\.ndjson is not the run it was forked from/,
        );
      } finally {
        writeFileSync(moved, original);
      }
    },
    SLOW,
  );

  it(
    'the pair moved together still reads (the parent is found beside the child)',
    async () => {
      const elsewhere = join(dir, 'elsewhere');
      renameSync(join(dir, 'moves'), elsewhere);
      try {
        expect(statSync(join(elsewhere, 'child.ndjson')).isFile()).toBe(true);
        await verifyCliIn(join(elsewhere, 'child.ndjson'));
      } finally {
        renameSync(elsewhere, join(dir, 'moves'));
      }
    },
    SLOW,
  );
});

describe('resume of a delta child', () => {
  it(
    'a delta child cut in the middle of a line resumes to the same digest and stays a delta child',
    async () => {
      const whole = join(dir, 'whole.ndjson');
      const r = await cliCheckedJson(['fork', parent, '--at', '11', '--seed', '21', '--out', whole]);
      const text = readFileSync(whole, 'utf8');
      const cut = join(dir, 'cut.ndjson');
      // keep the header, a few of the child's own lines and half of the next one: what a kill leaves
      const own = lines(whole);
      const keep = own.slice(0, 6).join('\n').length + 1 + Math.floor(own[6].length / 2);
      writeFileSync(cut, text.slice(0, keep));
      const resumed = await cliCheckedJson(['resume', cut]);
      expect(resumed.digest).toBe(r.digest);
      expect(deltaOf(cut)).toEqual(deltaOf(whole));
      expect(readFileSync(cut, 'utf8').split('\n').slice(1)).toEqual(text.split('\n').slice(1));
    },
    SLOW,
  );
});
