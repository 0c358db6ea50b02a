import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogFormatError } from '../../src/core/index.ts';
import { VerifyingLog } from '../../src/replay/continue/verifying-log.ts';
import { estimateJsonSize, SNAPSHOT_PART, splitSnapshot } from '../../src/replay/format/snapshot-split.ts';
import { LogWriter, readLog, readRecordedRun } from '../../src/replay/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('split');
afterEach(() => {
  delete process.env.GRAPEVINE_LOG_LINE_BOUND;
});

const HEADER = { engine: 'grapevine-test', world: { id: 'rumor', version: 1 }, seed: 1, params: { n: 3 } };

/** A state shaped like an engine snapshot: long base64 columns, a long array of small objects, small fields. */
function bigState(seed: number) {
  const column = (len: number, k: number) =>
    Buffer.from(Array.from({ length: len }, (_, i) => (i * 31 + k + seed) % 251)).toString('base64');
  return {
    tick: 4,
    executor: { kind: 'columnar', size: 3000, columns: [column(3000, 1), column(24_000, 2), 'short'] },
    bus: {
      pending: Array.from({ length: 400 }, (_, i) => ({ id: i, from: i % 7, item: 'rumor' })),
      waiting: null,
    },
    history: [{ aware: 1 }, { aware: 2 }],
    world: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`agent-${i}`, { heard: i % 3, seed }])),
  };
}

function writeRun(path: string, states: unknown[]): string {
  const w = LogWriter.create(path, HEADER);
  w.append('tick', 0, { state: 'x' });
  states.forEach((state, k) => {
    w.append('tick', k + 1, { state: 'y' });
    w.append('snapshot', k + 1, { state });
  });
  w.append('end', states.length, { reason: 'done' });
  return w.close();
}

async function readAll(path: string) {
  const out = [];
  for await (const line of readLog(path)) out.push(line);
  return out;
}

describe('split snapshots (issue 15 item 5)', () => {
  it('a snapshot over the bound is written as bounded parts and read back whole by readLog', async () => {
    process.env.GRAPEVINE_LOG_LINE_BOUND = '4096';
    const path = join(dir, 'split.ndjson');
    const states = [bigState(1), bigState(2)];
    writeRun(path, states);
    const text = readFileSync(path, 'utf8').trimEnd().split('\n');
    const longest = Math.max(...text.slice(1).map((l) => l.length));
    expect(longest).toBeLessThan(4096 + 400); // a part holds 1024 code units plus its keys
    const lines = await readAll(path);
    const snaps = lines.filter((l) => l.type === 'snapshot');
    expect(snaps).toHaveLength(2);
    expect(lines.filter((l) => l.type === SNAPSHOT_PART).length).toBeGreaterThan(30);
    expect(snaps.map((s) => s.event.state)).toEqual(states);
    expect(snaps[0].event.split).toEqual({ parts: expect.any(Number), chars: 1024 });
  });

  it('a snapshot under the bound stays one line, byte for byte what an unsplit writer writes', async () => {
    const a = join(dir, 'small-a.ndjson');
    const b = join(dir, 'small-b.ndjson');
    const state = { tick: 1, executor: { columns: ['AAAA'] }, history: [] };
    const digestA = writeRun(a, [state]);
    process.env.GRAPEVINE_LOG_LINE_BOUND = '4096';
    const digestB = writeRun(b, [state]);
    expect(digestB).toBe(digestA);
    expect(readFileSync(b, 'utf8').replace(/"startedAt":[^,}]*/, '')).not.toContain(SNAPSHOT_PART);
  });

  it('the verifier re-splits a rerun as the recording was split, whatever the bound it runs with', async () => {
    process.env.GRAPEVINE_LOG_LINE_BOUND = '4096';
    const path = join(dir, 'verify.ndjson');
    const states = [bigState(3)];
    const digest = writeRun(path, states);
    delete process.env.GRAPEVINE_LOG_LINE_BOUND;
    const recorded = await readRecordedRun(path);
    const rerun = (state: unknown) => {
      const v = new VerifyingLog(HEADER, recorded.chain);
      v.append('tick', 0, { state: 'x' });
      v.append('tick', 1, { state: 'y' });
      const seq = v.append('snapshot', 1, { state });
      v.append('end', 1, { reason: 'done' });
      return { seq, digest: v.close() };
    };
    expect(rerun(states[0])).toEqual({ seq: recorded.snapshots[0].seq, digest });
    expect(() => rerun(bigState(4))).toThrow(
      /diverges from the log at seq \d+ \(tick 1\): the log has a "snapshot-part" event/,
    );
  });

  it('parts without their snapshot, or a snapshot naming more parts than precede it, are refused', async () => {
    process.env.GRAPEVINE_LOG_LINE_BOUND = '4096';
    const path = join(dir, 'cut.ndjson');
    writeRun(path, [bigState(5)]);
    const text = readFileSync(path, 'utf8').trimEnd().split('\n');
    const snapAt = text.findIndex((l) => l.includes('"type":"snapshot",'));
    // cut inside the parts: a truncated log, read without error up to the cut
    const cut = join(dir, 'cut-parts.ndjson');
    writeFileSync(cut, `${text.slice(0, snapAt - 2).join('\n')}\n`);
    expect((await readAll(cut)).at(-1)?.type).toBe(SNAPSHOT_PART);
    // a complete part group with a line of another type where its snapshot should be
    const { LineCodec, lineText } = await import('../../src/replay/format/line-codec.ts');
    const prev = (await readAll(cut)).at(-1)?.chain as string;
    const seq = snapAt - 2;
    const intruder = lineText(new LineCodec().event('tick', 1, seq, { state: 'z' }), prev).text;
    const bad = join(dir, 'intruder.ndjson');
    writeFileSync(bad, `${text.slice(0, snapAt - 2).join('\n')}\n${intruder}\n`);
    await expect(readAll(bad)).rejects.toThrow(LogFormatError);
    await expect(readAll(bad)).rejects.toThrow(/not followed by their snapshot/);
  });

  it('splitSnapshot leaves the state alone and cuts strings and arrays of small items', () => {
    const state = bigState(6);
    const copy = structuredClone(state);
    const { parts, skeleton } = splitSnapshot(state, 1024);
    expect(state).toEqual(copy);
    expect((skeleton as { executor: { columns: unknown[] } }).executor.columns).toEqual([
      null,
      null,
      'short',
    ]);
    expect((skeleton as { bus: { pending: unknown } }).bus.pending).toBeNull();
    expect((skeleton as { world: unknown }).world).toBeNull();
    for (const p of parts) expect(estimateJsonSize(p.data)).toBeLessThanOrEqual(1024 + 2);
    expect(estimateJsonSize('abc')).toBe(JSON.stringify('abc').length);
    expect(estimateJsonSize({ a: [1, 2.5, null], b: true })).toBe(
      JSON.stringify({ a: [1, 2.5, null], b: true }).length,
    );
  });
});
