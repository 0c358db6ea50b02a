// readRecordedRun (what `replay --verify`, `resume` and `fork` read before their rerun) checks
// each line's chain over its bytes and leaves the snapshot lines and parts no continuation
// restores unparsed: the run it gives must be the one the full, parsing read gives, and
// anything wrong must still be reported, naming the line.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogWriter, type RecordedRun, readLog, readRecordedRun } from '../../src/replay/index.ts';
import { isUnparsed } from '../../src/replay/read/line-verifier.ts';
import { RecordedRunBuilder } from '../../src/replay/read/recorded-run.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('rerun-read');
afterEach(() => {
  delete process.env.GRAPEVINE_LOG_LINE_BOUND;
});

const HEADER = { engine: 'grapevine-test', world: { id: 'rumor', version: 1 }, seed: 1, params: { n: 3 } };

/** A snapshot state with a long base64 column and many small objects. */
function state(seed: number) {
  const column = Buffer.from(Array.from({ length: 60_000 }, (_, i) => (i * 7 + seed) % 251)).toString(
    'base64',
  );
  return {
    tick: seed,
    executor: { kind: 'columnar', columns: [column, 'short'] },
    world: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`a${i}`, { heard: (i + seed) % 3 }])),
  };
}

function writeRun(path: string): void {
  const w = LogWriter.create(path, HEADER);
  w.append('tick', 0, { state: 'x' });
  for (let t = 1; t <= 3; t++) {
    w.append('tick', t, { state: `y${t}` });
    w.append('snapshot', t, { state: state(t) });
  }
  w.append('end', 3, { reason: 'done' });
  w.close();
}

/** The run as the full read (every line parsed and re-encoded) gives it. */
async function fullRead(path: string): Promise<RecordedRun> {
  const builder = new RecordedRunBuilder([], path);
  const lines = readLog(path);
  for (;;) {
    const step = await lines.next();
    if (step.done) return builder.finish(step.value) as RecordedRun;
    builder.add(step.value);
  }
}

describe('the read before a rerun', () => {
  it('gives the run of the full read, snapshots whole or split into parts', async () => {
    const whole = join(dir, 'whole.ndjson');
    writeRun(whole);
    process.env.GRAPEVINE_LOG_LINE_BOUND = '4096';
    const split = join(dir, 'split.ndjson');
    writeRun(split);
    expect(readFileSync(split, 'utf8')).toContain('"type":"snapshot-part"');
    for (const path of [whole, split]) {
      expect(await readRecordedRun(path)).toEqual(await fullRead(path));
      // the snapshot lines and parts are chained, not parsed (the rule readRecordedRun gives)
      const kinds: string[] = [];
      for await (const line of readLog(path, { verify: 'chain', parse: new RecordedRunBuilder().parse }))
        if (isUnparsed(line)) kinds.push(line.type);
      expect(kinds.length).toBeGreaterThanOrEqual(3);
      expect(kinds.every((k) => k === 'snapshot' || k === 'snapshot-part')).toBe(true);
    }
    // the split is what a rerun needs to split its own snapshots as the recording did
    expect((await readRecordedRun(split)).chain.splits?.size).toBe(3);
    // (a small snapshot line, under 64 KiB, is parsed: a split snapshot's own line is one)
  });

  it('chains lines with `wall` from their bytes, whatever their length, as the full read does', async () => {
    const path = join(dir, 'wall.ndjson');
    const w = LogWriter.create(path, HEADER);
    // longer than the 1 MiB read buffer: lines span reads, and the buffer grows
    const long = 'x'.repeat(3 * 1024 * 1024);
    for (let t = 1; t <= 3; t++) {
      w.append('tick', t, { state: `y${t}` });
      w.append('llm', t, {
        caller: String(t),
        text: t === 2 ? long : `short ${t}`,
        wall: { latencyMs: t + 0.5 },
      });
      // a nested `wall` is hashed; a key after `wall` leaves the line to the full check
      w.append('note', t, { inner: { wall: { a: t } }, wall: { ms: t } });
      w.append('note', t, { wall: { ms: t }, zeta: t });
    }
    w.append('end', 3, { reason: 'done' });
    w.close();
    const fast = await readRecordedRun(path);
    expect(fast).toEqual(await fullRead(path));
    expect(fast?.llmRecords.map((r) => r.wall)).toEqual([
      { latencyMs: 1.5 },
      { latencyMs: 2.5 },
      { latencyMs: 3.5 },
    ]);
    expect(fast?.llmRecords[1].text).toBe(long);
  });

  it('names the line of a changed byte of a line with `wall`, in its body or in `wall`', async () => {
    const path = join(dir, 'wall-tampered.ndjson');
    const w = LogWriter.create(path, HEADER);
    w.append('llm', 1, { caller: '0', text: 'hello', wall: { latencyMs: 7 } });
    w.append('llm', 1, { caller: '1', text: 'hello', wall: { latencyMs: 8 } });
    w.append('end', 1, { reason: 'done' });
    w.close();
    const text = readFileSync(path, 'utf8');
    expect((await readRecordedRun(path)).digest).toBe((await fullRead(path)).digest);
    // in the hashed body
    writeFileSync(
      path,
      text.replace(
        '"hello","type":"llm","wall":{"latencyMs":8}',
        '"hellO","type":"llm","wall":{"latencyMs":8}',
      ),
    );
    await expect(readRecordedRun(path)).rejects.toThrow('line 3');
    // in `wall`, which is not hashed but must be canonical
    writeFileSync(path, text.replace('"latencyMs":8', '"latencyMs":8.0'));
    await expect(readRecordedRun(path)).rejects.toThrow('line 3 (seq 2, tick 1) is not in canonical form');
  });

  it('names the line of a changed snapshot byte', async () => {
    const path = join(dir, 'tampered.ndjson');
    writeRun(path);
    const lines = readFileSync(path, 'utf8').split('\n');
    const k = lines.findIndex((l) => l.includes('"type":"snapshot"'));
    lines[k] = lines[k].replace('"heard":1', '"heard":2');
    writeFileSync(path, lines.join('\n'));
    await expect(readRecordedRun(path)).rejects.toThrow(
      `line ${k + 1} (seq ${k}) does not match the hash chain`,
    );
  });

  it('reads an unfinished line as a cut log, and refuses a missing file and bytes after the end', async () => {
    await expect(readRecordedRun(join(dir, 'missing.ndjson'))).rejects.toThrow('no such log file');
    const cut = join(dir, 'cut.ndjson');
    writeRun(cut);
    const text = readFileSync(cut, 'utf8');
    writeFileSync(cut, text.slice(0, text.length - 20));
    expect(await readRecordedRun(cut)).toEqual(await fullRead(cut));
    expect((await readRecordedRun(cut)).truncated).toBe(true);
    const after = join(dir, 'after.ndjson');
    writeFileSync(after, `${text}{"extra":1}\n`);
    await expect(readRecordedRun(after)).rejects.toThrow('follows the end line');
  });
});
