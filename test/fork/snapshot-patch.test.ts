// Snapshot patches (issue 17, log format 3): a delta child writes each snapshot as the
// differences of its bytes from the parent snapshot it restored, chained as the full line,
// so its digest is the one a standalone fork has. Rumour world, 2,000 agents (columns of
// more than 4 KiB of base64, compared in place), snapshots every 10 ticks. The lines a
// reader sees are checked against an expansion written in test/fork/helpers.ts from the
// format's description, not by src/replay.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { deltaHeaderLine } from '../../src/replay/format/delta-ref.ts';
import { LineCodec } from '../../src/replay/format/line-codec.ts';
import { LOG_FORMAT } from '../../src/replay/format/log-format.ts';
import { isPatchLine as isPatchBytes } from '../../src/replay/format/snapshot-patch.ts';

const isPatchLine = (raw: string): boolean => isPatchBytes(Buffer.from(raw));

import {
  continueRun,
  flattenLog,
  type LogHeader,
  LogWriter,
  readHeader,
  readLog,
  readRecordedRun,
  scanLog,
} from '../../src/replay/index.ts';
import type { Intervention } from '../../src/world/index.ts';
import { runWorld } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { cliCheckedJson } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { lines } from './helpers.ts';

const def = world;
const dir = tempDir('snapshot-patch');
const parent = join(dir, 'parent.ndjson');
let parentDigest: string;
const SLOW = 120_000;

/** The lines of a file as written (a delta child: its header and its own lines). */
const own = (path: string): string[] => readFileSync(path, 'utf8').trimEnd().split('\n');
const parsedOf = (raw: string) => JSON.parse(raw) as { seq: number; t: number; type: string };

/** The lines of a log as readLog yields them. */
async function read(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const line of readLog(path)) out.push(line.raw);
  return out;
}

async function fork(
  at: number,
  out: string,
  opts: { from?: string; layout?: 'delta' | 'standalone'; interventions?: Intervention[] } = {},
) {
  const path = opts.from ?? parent;
  const recorded = await readRecordedRun(path, { restoreTicks: [at] });
  return continueRun({
    def,
    recorded,
    path,
    atTick: at,
    out,
    layout: opts.layout ?? 'delta',
    interventions: opts.interventions,
  });
}

/** Seq of the periodic snapshot of tick `t` in a log as readers see it. */
function snapshotSeq(all: string[], t: number): number {
  return all.findIndex((raw) => {
    const l = parsedOf(raw);
    return l.type === 'snapshot' && l.t === t;
  });
}

beforeAll(async () => {
  const r = await runWorld(def, {
    params: { n: 2000 },
    seed: 3,
    ticks: 40,
    snapshotEvery: 10,
    openLog: (header) => LogWriter.create(parent, header, { index: true }),
  });
  parentDigest = r.digest;
  expect(r.ticks).toBe(40);
}, SLOW);

describe('a delta child writes its snapshots as patches', () => {
  it(
    'without intervention: patches of the snapshot it restored, the parent digest, and the lines of the parent',
    async () => {
      const child = join(dir, 'same.ndjson');
      const r = await fork(25, child);
      expect(r.digest).toBe(parentDigest);
      const file = own(child);
      const header = JSON.parse(file[0]) as { format: string; delta: { base: number[]; seq: number } };
      const parentLines = own(parent);
      const base = snapshotSeq(parentLines, 20);
      expect(header.format).toBe(LOG_FORMAT);
      expect(header.delta.base).toEqual([base, base]);
      // every snapshot after the fork (30, 40 and the final one) is a patch, each under half its line
      const patches = file.filter(isPatchLine).map((raw) => JSON.parse(raw) as { seq: number; base: number });
      expect(patches.map((p) => parsedOf(parentLines[p.seq]))).toMatchObject([
        { type: 'snapshot', t: 30 },
        { type: 'snapshot', t: 40 },
        { type: 'snapshot', t: 40 },
      ]);
      for (const p of patches) expect(p.base).toBe(base);
      for (const raw of file.filter(isPatchLine))
        expect(raw.length).toBeLessThan(parentLines[parsedOf(raw).seq].length / 2);
      // as readers see it: the parent's lines (but for the header's wall), by both expansions
      const seen = await read(child);
      expect(seen.slice(1)).toEqual(parentLines.slice(1));
      expect(lines(child).slice(1)).toEqual(parentLines.slice(1));
      expect((await scanLog(child)).digest).toBe(parentDigest);
    },
    SLOW,
  );

  it(
    'flatten writes full snapshots: the bytes of a standalone fork, which has no patches',
    async () => {
      const child = join(dir, 'flat-src.ndjson');
      const standalone = join(dir, 'standalone.ndjson');
      const reseed: Intervention[] = [{ type: 'reseed', seed: 91 }];
      const d = await fork(25, child, { interventions: reseed });
      const s = await fork(25, standalone, { interventions: reseed, layout: 'standalone' });
      expect(d.digest).toBe(s.digest);
      expect(d.digest).not.toBe(parentDigest);
      expect(own(standalone).filter(isPatchLine)).toEqual([]);
      expect(own(child).filter(isPatchLine).length).toBeGreaterThan(0);
      const flat = join(dir, 'flat.ndjson');
      const f = await flattenLog(child, flat);
      expect(f.digest).toBe(d.digest);
      expect(readFileSync(flat, 'utf8')).toBe(readFileSync(standalone, 'utf8'));
      expect(statSync(child).size).toBeLessThan(statSync(standalone).size / 2);
    },
    SLOW,
  );

  it(
    'a changed column (a message to a few agents): the child verifies, and its snapshots differ from the parent',
    async () => {
      const child = join(dir, 'message.ndjson');
      const r = await fork(22, child, {
        interventions: [5, 500, 1500].map(
          (agent) =>
            ({ type: 'message', from: -1, to: { agent }, kind: 'tell', item: 'rumor' }) as Intervention,
        ),
      });
      expect(r.digest).not.toBe(parentDigest);
      expect((await scanLog(child)).digest).toBe(r.digest);
      const seen = await read(child);
      expect(lines(child).slice(1)).toEqual(seen.slice(1));
      const at30 = snapshotSeq(seen, 30);
      expect(seen[at30]).not.toBe(own(parent)[snapshotSeq(own(parent), 30)]);
      expect(own(child).some((raw) => isPatchLine(raw) && parsedOf(raw).seq === at30)).toBe(true);
    },
    SLOW,
  );
});

describe('the writer falls back to a full line', () => {
  it(
    'a snapshot whose bytes mostly differ from the base is written whole; a nearly equal one as a patch',
    async () => {
      const parentLines = own(parent);
      const base = snapshotSeq(parentLines, 20);
      const end = base; // the child's past ends with the snapshot of tick 20
      const chain = await chainAt(parent, end);
      const header = (await readHeader(parent)) as LogHeader;
      const state = (JSON.parse(parentLines[base]) as { state: { executor: { columns: string[] } } }).state;
      const nearly = structuredClone(state);
      const column = Buffer.from(nearly.executor.columns[0], 'base64');
      column[10] ^= 1;
      nearly.executor.columns[0] = column.toString('base64');
      const scrambled = structuredClone(state);
      scrambled.executor.columns = scrambled.executor.columns.map((c) =>
        Buffer.from(Buffer.from(c, 'base64').map((_, i) => (i * 7919 + 13) & 0xff)).toString('base64'),
      );
      const write = (path: string, patched: boolean) => {
        const at = {
          digest: parentDigest,
          atTick: 20,
          seq: end,
          chain,
          base: [base, base] as [number, number],
        };
        writeFileSync(path, `${deltaHeaderLine(path, parent, at, undefined, LOG_FORMAT)}\n`);
        const w = LogWriter.appendTo(
          path,
          { header, seq: end, chain },
          patched ? [{ seq: base, bytes: Buffer.from(parentLines[base]) }] : undefined,
        );
        w.append('snapshot', 21, { state: nearly });
        w.append('snapshot', 21, { state: scrambled });
        return w.close();
      };
      const patched = join(dir, 'by-hand.ndjson');
      const whole = join(dir, 'by-hand-whole.ndjson');
      const digest = write(patched, true);
      expect(write(whole, false)).toBe(digest);
      const file = own(patched);
      expect(file.map(isPatchLine)).toEqual([false, true, false]);
      expect(file[2]).toBe(own(whole)[2]);
      expect(await read(patched)).toEqual(await read(whole));
      expect((await scanLog(patched)).digest).toBe(digest);
    },
    SLOW,
  );
});

/** The chain value after line `seq` of a log. */
async function chainAt(path: string, seq: number): Promise<string> {
  for await (const line of readLog(path)) if (line.seq === seq) return line.chain as string;
  throw new Error(`no seq ${seq} in ${path}`);
}

describe('resume, forks of forks, old logs, edits', () => {
  it(
    'a killed patched child resumes to the bytes of the uninterrupted one',
    async () => {
      const whole = join(dir, 'whole.ndjson');
      const r = await fork(15, whole, { interventions: [{ type: 'reseed', seed: 5 }] });
      const text = readFileSync(whole, 'utf8');
      const file = own(whole);
      const first = file.findIndex(isPatchLine);
      expect(first).toBeGreaterThan(0);
      // the first patch and half the line after it: what a kill leaves
      const keep = file.slice(0, first + 1).join('\n').length + 1 + Math.floor(file[first + 1].length / 2);
      const cut = join(dir, 'cut.ndjson');
      writeFileSync(cut, text.slice(0, keep));
      const resumed = await cliCheckedJson(['resume', cut]);
      expect(resumed.digest).toBe(r.digest);
      expect(readFileSync(cut, 'utf8')).toBe(text);
    },
    SLOW,
  );

  it(
    'a fork of a fork restores a snapshot that is a patch in its parent, and patches against it',
    async () => {
      const child = join(dir, 'gen1.ndjson');
      const grandchild = join(dir, 'gen2.ndjson');
      const c = await fork(12, child, { interventions: [{ type: 'reseed', seed: 8 }] });
      const childSeen = await read(child);
      const at20 = snapshotSeq(childSeen, 20);
      expect(own(child).some((raw) => isPatchLine(raw) && parsedOf(raw).seq === at20)).toBe(true);
      const g = await fork(25, grandchild, { from: child, interventions: [{ type: 'reseed', seed: 9 }] });
      const header = JSON.parse(own(grandchild)[0]) as { delta: { base: number[] } };
      expect(header.delta.base).toEqual([at20, at20]);
      expect(own(grandchild).filter(isPatchLine).length).toBeGreaterThan(0);
      expect((await scanLog(grandchild)).digest).toBe(g.digest);
      expect((await read(grandchild)).slice(1)).toEqual(lines(grandchild).slice(1));
      expect((await flattenLog(grandchild, join(dir, 'gen2-flat.ndjson'))).digest).toBe(g.digest);
      expect(c.digest).not.toBe(g.digest);
    },
    SLOW,
  );

  it(
    'a delta child without a patch base (full snapshots, as every child was before format 3) still reads, with the same lines',
    async () => {
      const child = join(dir, 'for-old.ndjson');
      await fork(25, child);
      const file = own(child);
      const header = JSON.parse(file[0]) as Record<string, unknown> & { delta: Record<string, unknown> };
      const { base: _base, ...delta } = header.delta;
      const { h: _h, ...rest } = { ...header, delta } as Record<string, unknown>;
      const old = join(dir, 'old-form.ndjson');
      const full = lines(child);
      const from = (delta as { seq: number }).seq + 1;
      const headerLine = new LineCodec().encode(rest, null).text;
      writeFileSync(old, `${[headerLine, ...full.slice(from)].join('\n')}\n`);
      expect(own(old).filter(isPatchLine)).toEqual([]);
      expect((await scanLog(old)).digest).toBe(parentDigest);
      expect(await read(old)).toEqual(await read(child));
    },
    SLOW,
  );

  it(
    'an edited patch is refused at its line',
    async () => {
      const child = join(dir, 'edited.ndjson');
      await fork(25, child);
      const file = own(child);
      const k = file.findIndex(isPatchLine);
      const patch = JSON.parse(file[k]) as { data: string };
      // a character inside a run of base64 (a column's bytes), so that the line stays JSON
      const at = patch.data.search(/[A-Za-z0-9+/]{16}/) + 8;
      expect(at).toBeGreaterThan(7);
      const edited =
        patch.data.slice(0, at) + (patch.data[at] === 'A' ? 'B' : 'A') + patch.data.slice(at + 1);
      file[k] = file[k].replace(JSON.stringify(patch.data), () => JSON.stringify(edited));
      writeFileSync(child, `${file.join('\n')}\n`);
      await expect(scanLog(child)).rejects.toThrow(
        new RegExp(`line ${k + 1} .*does not match the hash chain`),
      );
    },
    SLOW,
  );
});

describe('split snapshots', () => {
  it(
    'a parent whose snapshots are split into parts: each part of the child is patched against the part of the same rank',
    async () => {
      const bound = process.env.GRAPEVINE_LOG_LINE_BOUND;
      process.env.GRAPEVINE_LOG_LINE_BOUND = '65536'; // parts of 16 Ki characters
      try {
        const split = join(dir, 'split.ndjson');
        const p = await runWorld(def, {
          params: { n: 2000 },
          seed: 3,
          ticks: 40,
          snapshotEvery: 10,
          openLog: (header) => LogWriter.create(split, header, { index: true }),
        });
        const parentLines = own(split);
        expect(parentLines.some((raw) => parsedOf(raw).type === 'snapshot-part')).toBe(true);
        const child = join(dir, 'split-child.ndjson');
        const r = await fork(25, child, { from: split });
        expect(r.digest).toBe(p.digest);
        const header = JSON.parse(own(child)[0]) as { delta: { base: [number, number] } };
        const [first, last] = header.delta.base;
        expect(parsedOf(parentLines[first]).type).toBe('snapshot-part');
        expect(parsedOf(parentLines[last])).toMatchObject({ type: 'snapshot', t: 20 });
        const patched = own(child)
          .filter(isPatchLine)
          .map((raw) => JSON.parse(raw) as { seq: number; base: number });
        const parts = patched.filter((x) => parsedOf(parentLines[x.seq]).type === 'snapshot-part');
        expect(parts.length).toBeGreaterThan(0);
        for (const x of parts) expect(x.base).toBeGreaterThanOrEqual(first);
        expect((await read(child)).slice(1)).toEqual(parentLines.slice(1));
        expect(lines(child).slice(1)).toEqual(parentLines.slice(1));
      } finally {
        if (bound === undefined) delete process.env.GRAPEVINE_LOG_LINE_BOUND;
        else process.env.GRAPEVINE_LOG_LINE_BOUND = bound;
      }
    },
    SLOW,
  );
});

describe('snapshot lines written as bytes (10^5 agents)', () => {
  it(
    'the periodic and the final snapshot at the last tick (the final one built around the same state bytes) are patches that read back to the parent',
    async () => {
      const big = join(dir, 'big.ndjson');
      const p = await runWorld(def, {
        params: { n: 100_000 },
        seed: 4,
        ticks: 20,
        snapshotEvery: 10,
        openLog: (header) => LogWriter.create(big, header, { index: true }),
      });
      expect(p.ticks).toBe(20);
      const child = join(dir, 'big-child.ndjson');
      const r = await fork(15, child, { from: big });
      expect(r.digest).toBe(p.digest);
      const parentLines = own(big);
      const patches = own(child).filter(isPatchLine).map(parsedOf);
      expect(patches.map((x) => parentLines[x.seq].length > 1 << 20)).toEqual([true, true]);
      expect(patches.map((x) => parsedOf(parentLines[x.seq]))).toMatchObject([
        { type: 'snapshot', t: 20 },
        { type: 'snapshot', t: 20 },
      ]);
      expect((await read(child)).slice(1)).toEqual(parentLines.slice(1));
    },
    SLOW,
  );
});
