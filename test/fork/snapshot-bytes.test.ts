// Issue 17: a fork reads its restore snapshot from the line's bytes (columns
// decoded straight into their arrays, see parseSnapshotLine), and a run that ends on a
// snapshot tick writes its final snapshot from the periodic one's bytes. Neither may change
// a byte or a digest: a fork without intervention keeps the parent's digest, a delta child
// and its flattening have the same digest, children restored from one shared state equal
// children forked alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Base64Text, base64Into, canonicalJson, typedToBase64Chunks } from '../../src/core/index.ts';
import { continueRun, flattenLog, LogWriter, readRecordedRun, restoreOnce } from '../../src/replay/index.ts';
import { cloneSnapshotState, decodeBase64, parseSnapshotLine } from '../../src/replay/read/snapshot-line.ts';
import { type Intervention, runWorld } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { tempDir } from '../support/temp-dir.ts';
import { verifyInProcess } from './helpers.ts';

const def = world;
const dir = tempDir('snapshot-bytes');
// 30,000 agents: a snapshot line of ~1.2 Mi characters, which the writer writes as bytes
const params = {
  n: 30_000,
  model: 'independent-cascade',
  p: 0.5,
  network: 'watts-strogatz',
  k: 6,
  beta: 0.001,
};
const parent = join(dir, 'parent.ndjson');
let digest: string;

/** The text of a state with every Base64Text written as its base64 string (as JSON.parse gives it). */
const asJson = (v: unknown): unknown => JSON.parse(canonicalJson(v));

beforeAll(async () => {
  const r = await runWorld(def, {
    params,
    seed: 3,
    ticks: 12,
    snapshotEvery: 4,
    openLog: (header) => LogWriter.create(parent, header, { index: true }),
  });
  expect(r.ticks).toBe(12); // ends on a snapshot tick: periodic and final snapshot at 12
  digest = r.digest;
});

describe('the final snapshot written from the periodic one at the same tick', () => {
  it('is the same line but for seq, and the log verifies with the digest of the run', async () => {
    const lines = readFileSync(parent, 'utf8').trimEnd().split('\n');
    const [periodic, final] = lines.slice(-3, -1).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(periodic.type).toBe('snapshot');
    expect(final.type).toBe('snapshot');
    expect(lines.at(-2)!.length).toBeGreaterThan(2 ** 20); // written as bytes
    expect(final.seq).toBe((periodic.seq as number) + 1);
    expect(final.state).toEqual(periodic.state);
    expect((await readRecordedRun(parent)).digest).toBe(digest);
    expect(await verifyInProcess(parent)).toBe(digest);
  });
});

describe('parseSnapshotLine', () => {
  it('parses a snapshot line as JSON.parse does, with the columns as their decoded bytes', () => {
    const snapshot = readFileSync(parent, 'utf8')
      .split('\n')
      .find((l) => l.includes('"type":"snapshot"'))!;
    const fast = parseSnapshotLine(Buffer.from(snapshot))!.event;
    expect(asJson(fast)).toEqual(JSON.parse(snapshot));
    const ex = (fast.state as { executor: { columns: unknown[]; regions: unknown[] } }).executor;
    expect(ex.columns.every((c) => c instanceof Base64Text)).toBe(true);
    expect(ex.regions.every((c) => c instanceof Base64Text)).toBe(true);
    // a copy keeps its Base64Texts (structuredClone would not), with bytes of its own
    const copy = cloneSnapshotState(fast);
    expect(asJson(copy)).toEqual(JSON.parse(snapshot));
    const col = (copy.state as { executor: { columns: Base64Text[] } }).executor.columns[0];
    expect(col).toBeInstanceOf(Base64Text);
    expect(col.bytes).not.toBe((ex.columns[0] as Base64Text).bytes);
  });

  it('leaves long base64 strings outside the columns, escaped quotes and non-base64 text as JSON.parse does', () => {
    const b64 = Buffer.alloc(6000, 7).toString('base64');
    const line = {
      seq: 9,
      state: {
        executor: { kind: 'columnar', columns: [b64, 'AAAA'], regions: [] },
        bus: { pending: [{ to: [b64, b64], msg: b64 }], waiting: null },
        world: { blob: b64, odd: `${b64}A`, quoted: `"${'x\\"'.repeat(3000)}"`, uni: 'é'.repeat(5000) },
      },
      t: 3,
      type: 'snapshot',
    };
    const text = JSON.stringify(line);
    const bytes = Buffer.from(text);
    const parsed = parseSnapshotLine(bytes)!;
    const fast = parsed.event;
    // the ranges of its long strings, found on the way: each a JSON string's text of 4096 bytes or more
    for (let k = 0; k < parsed.longStrings.length; k += 2) {
      const [from, to] = [parsed.longStrings[k], parsed.longStrings[k + 1]];
      expect(to - from).toBeGreaterThanOrEqual(4096);
      expect([bytes[from - 1], bytes[to]]).toEqual([0x22, 0x22]);
    }
    expect(parsed.longStrings.length).toBe(2 * 8);
    expect(asJson(fast)).toEqual(JSON.parse(text));
    const s = fast.state as Record<string, Record<string, unknown>>;
    expect((s.executor.columns as unknown[])[0]).toBeInstanceOf(Base64Text);
    expect((s.executor.columns as unknown[])[1]).toBe('AAAA');
    expect((s.bus.pending as { to: unknown[]; msg: unknown }[])[0].to[1]).toBeInstanceOf(Base64Text);
    expect(s.world.blob).toBe(b64); // a world's own string stays a string
    expect(s.world.odd).toBe(`${b64}A`);
  });

  it('decodes base64 as Buffer.from does, and refuses what is not padded base64', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 3000, 3001, 3002]) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff));
      const text = Buffer.from(bytes.toString('base64'));
      expect(Buffer.from(decodeBase64(text, 0, text.length)!)).toEqual(bytes);
    }
    for (const bad of ['AAA', 'A=AA', 'AA-A', 'AA A', '=AAA', 'A===']) {
      const text = Buffer.from(bad);
      expect(decodeBase64(text, 0, text.length)).toBeNull();
    }
  });
});

describe('base64Into', () => {
  it('decodes a column into an array of its size (string, chunks or bytes), and refuses any other size', () => {
    const col = Int32Array.from({ length: 3000 }, (_, i) => i * 7919 - 5);
    const text = typedToBase64Chunks(col);
    const chunks = typedToBase64Chunks(col, 400) as string[];
    expect(chunks.length).toBeGreaterThan(1);
    for (const b64 of [text, chunks, new Base64Text(new Uint8Array(col.buffer))]) {
      const into = new Int32Array(3000);
      expect(base64Into(b64, into)).toBe(true);
      expect(into).toEqual(col);
    }
    expect(base64Into(text, new Int32Array(2999))).toBe(false);
    expect(base64Into(text, new Int32Array(3001))).toBe(false);
    expect(base64Into(`${(text as string).slice(0, -8)}!!!!!!!!`, new Int32Array(3000))).toBe(false);
  });
});

describe('forks restored from the snapshot bytes', () => {
  it('without intervention keep the parent digest; a delta child and its flattening have the same digest', async () => {
    for (const at of [4, 6]) {
      const child = join(dir, `child-${at}.ndjson`);
      const recorded = await readRecordedRun(parent, { restoreTicks: [at] });
      // the snapshot restored was read from its bytes: its columns are decoded already
      const kept = recorded.snapshotStates.get(recorded.snapshots.find((s) => s.tick === 4)!.seq);
      expect((kept as { executor: { columns: unknown[] } }).executor.columns[0]).toBeInstanceOf(Base64Text);
      const r = await continueRun({
        def,
        recorded,
        path: parent,
        atTick: at,
        out: child,
        layout: 'delta',
        ownsRecorded: true,
      });
      expect(r.digest).toBe(digest);
      const flat = await flattenLog(child, join(dir, `flat-${at}.ndjson`));
      expect(flat.digest).toBe(digest);
      expect(await verifyInProcess(child)).toBe(digest);
    }
  });

  it('with an intervention: children from one shared restore equal children forked alone, and their flattening', async () => {
    const at = 8;
    const recorded = await readRecordedRun(parent, { restoreTicks: [at] });
    const factory = await restoreOnce(def, recorded, parent, at);
    expect(factory.shared).toBe('snapshot');
    for (const seed of [1, 2]) {
      const interventions = [{ type: 'reseed', seed } as Intervention];
      const alone = join(dir, `alone-${seed}.ndjson`);
      const shared = join(dir, `shared-${seed}.ndjson`);
      const a = await continueRun({
        def,
        recorded,
        path: parent,
        atTick: at,
        out: alone,
        interventions,
        layout: 'delta',
      });
      const b = await factory.fork({ out: shared, interventions, layout: 'delta' });
      expect(a.digest).not.toBe(digest);
      expect(b.digest).toBe(a.digest);
      expect(readFileSync(shared, 'utf8')).toBe(readFileSync(alone, 'utf8'));
      expect((await flattenLog(alone, join(dir, `alone-flat-${seed}.ndjson`))).digest).toBe(a.digest);
    }
  });
});
