import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LogFormatError } from '../../src/core/index.ts';
import type { LogLine } from '../../src/replay/format/log-format.ts';
import { loadParentIndex } from '../../src/replay/format/log-index.ts';
import { LogWriter, readHeader, readLog, scanLog } from '../../src/replay/index.ts';
import { buildIndex } from '../../src/replay/read/read-log.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('log-io');

let fileNo = 0;
function tmp(ext = 'ndjson'): string {
  fileNo++;
  return join(dir, `run-${fileNo}.${ext}`);
}

const EVENTS_PER_TICK = 5;

/** The deterministic event with sequence number `seq` of a sample run of `total` events. */
function eventFor(seq: number, total: number, wall?: number) {
  const t = Math.floor((seq - 1) / EVENTS_PER_TICK);
  if (seq === total) return { type: 'end', t, fields: { reason: 'done' } };
  const fields: Record<string, unknown> = { agent: seq % 7, item: `rumour-${seq % 3}`, note: `é✓ ${seq}` };
  if (seq % 4 === 0) fields.detail = { heard: [seq - 1, seq - 2], from: null, trust: 0.25 };
  if (wall !== undefined && seq % 3 === 0) fields.wall = { latencyMs: wall + seq };
  return { type: seq % 4 === 0 ? 'tell' : 'act', t, fields };
}

const HEADER = { engine: 'grapevine-test', world: { id: 'rumor', version: 1 }, seed: 42, params: { n: 7 } };

/** Appends events `from..to` of a run of `total` to `writer`, flushing at every tick boundary. */
function appendEvents(writer: LogWriter, from: number, to: number, total = to, wall?: number): void {
  for (let seq = from; seq <= to; seq++) {
    const e = eventFor(seq, total, wall);
    expect(writer.append(e.type, e.t, e.fields)).toBe(seq);
    if (seq % EVENTS_PER_TICK === 0) writer.flush();
  }
}

/** Writes a whole sample run of `total` events in one go; returns its digest. */
function writeSample(path: string, total = 40, wall?: number): string {
  const header = wall === undefined ? HEADER : { ...HEADER, wall: { startedAt: `2024-01-0${wall}` } };
  const writer = LogWriter.create(path, header);
  appendEvents(writer, 1, total, total, wall);
  return writer.close();
}

/** Writes the sample log that `plain` holds again as a .gz file; returns its path. */
function tmpGz(plain: string): string {
  const path = tmp('ndjson.gz');
  writeFileSync(path, gzipSync(readFileSync(plain)));
  return path;
}

async function readAll(path: string, verify = true): Promise<LogLine[]> {
  const lines: LogLine[] = [];
  for await (const line of readLog(path, { verify })) lines.push(line);
  return lines;
}

async function failure(promise: Promise<unknown>): Promise<LogFormatError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(LogFormatError);
    return err as LogFormatError;
  }
  throw new Error('expected a LogFormatError, but the read succeeded');
}

/** Replaces the byte at `offset` of a copy of `bytes` with `value`. */
function withByte(bytes: Buffer, offset: number, value: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[offset] = value;
  return copy;
}

/** Byte offset of the start of 1-based line `line` in a plain log. */
function lineStart(bytes: Buffer, line: number): number {
  let pos = 0;
  for (let i = 1; i < line; i++) pos = bytes.indexOf(0x0a, pos) + 1;
  return pos;
}

describe('round trip', () => {
  it('reads back what it wrote, header first, with consecutive seqs', async () => {
    const path = tmp();
    const digest = writeSample(path, 40);
    const lines = await readAll(path);
    expect(lines).toHaveLength(41);
    expect(lines[0]).toMatchObject({ seq: 0, t: 0, type: 'header', line: 1 });
    expect(lines[0].event).toMatchObject({ ...HEADER, format: 'grapevine-log/3' });
    for (let seq = 1; seq <= 40; seq++) {
      const e = eventFor(seq, 40);
      expect(lines[seq]).toMatchObject({ seq, t: e.t, type: e.type, line: seq + 1 });
      expect(lines[seq].event).toEqual({ ...e.fields, seq, t: e.t, type: e.type });
    }
    expect(lines.map((l) => `${l.raw}\n`).join('')).toBe(readFileSync(path, 'utf8'));
    const summary = await scanLog(path);
    expect(summary).toMatchObject({ lastSeq: 40, lastTick: 7, lines: 41, truncated: false, complete: true });
    expect(summary.digest).toBe(digest);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(lines[40].raw.endsWith(`"h":"${digest.slice(0, 16)}"}`)).toBe(true);
  });

  it('writes each line as canonical JSON with h last', () => {
    const path = tmp();
    const writer = LogWriter.create(path, { zeta: 1, alpha: { b: 2, a: [3, { d: 4, c: 5 }] } });
    writer.append('act', 1, { b: 'x', a: -0 });
    writer.close();
    const [header, event] = readFileSync(path, 'utf8').split('\n');
    expect(header).toMatch(
      /^\{"alpha":\{"a":\[3,\{"c":5,"d":4\}\],"b":2\},"format":"grapevine-log\/3","seq":0,"t":0,"type":"header","zeta":1,"h":"[0-9a-f]{16}"\}$/,
    );
    expect(event).toMatch(/^\{"a":0,"b":"x","seq":1,"t":1,"type":"act","h":"[0-9a-f]{16}"\}$/);
  });

  it('gives a .gz log the same digest and lines as a plain one, readable by any gunzip', async () => {
    const plain = tmp();
    const gz = tmp('ndjson.gz');
    const digest = writeSample(plain, 60);
    expect(writeSample(gz, 60)).toBe(digest);
    expect((await scanLog(gz)).digest).toBe(digest);
    expect((await readAll(gz)).map((l) => l.raw)).toEqual((await readAll(plain)).map((l) => l.raw));
    expect(gunzipSync(readFileSync(gz)).equals(readFileSync(plain))).toBe(true);
  });

  it('reads lines longer than a read chunk, with multi-byte characters across chunk edges', async () => {
    for (const ext of ['ndjson', 'ndjson.gz']) {
      const path = tmp(ext);
      const writer = LogWriter.create(path, HEADER);
      // 2.15 MB lines (over 2 MiB): each crosses at least two 1 MiB read chunks (READ_CHUNK in line-source.ts)
      const long = 'é✓😀x'.repeat(215_000);
      writer.append('say', 1, { text: long });
      writer.append('say', 1, { text: 'short' });
      writer.append('say', 2, { text: long.slice(3) });
      const digest = writer.close();
      const lines = await readAll(path);
      expect(lines.map((l) => l.event.text)).toEqual([undefined, long, 'short', long.slice(3)]);
      expect((await scanLog(path)).digest).toBe(digest);
    }
  });

  it('writes a line over 1 Mi code units from the bytes it hashed: same bytes, digest and index as the text path', async () => {
    const write = (path: string, index: boolean): string => {
      const writer = LogWriter.create(path, HEADER, { index });
      const big = (tag: string) => `${tag}é✓😀${'A'.repeat((1 << 20) + 7)}`;
      writer.append('note', 1, { text: 'ünïcödé before, in the same write' });
      writer.append('tick', 1, {});
      writer.append('snapshot', 1, { state: { columns: [big('a')], tick: 1 } });
      writer.append('say', 2, { text: 'between' });
      writer.append('snapshot', 2, { state: { columns: [big('b')], tick: 2 } });
      writer.append('snapshot', 2, { state: { columns: [big('b')], tick: 2 } });
      writer.append('end', 2, { reason: 'done' });
      return writer.close();
    };
    // a gzip log keeps the text path (one string per line, batched): the reference bytes
    const plain = tmp();
    const gz = tmp('ndjson.gz');
    const digest = write(plain, true);
    expect(write(gz, false)).toBe(digest);
    const bytes = readFileSync(plain);
    expect(gunzipSync(readFileSync(gz)).equals(bytes)).toBe(true);
    expect(
      bytes
        .toString('utf8')
        .split('\n')
        .filter((l) => l.length > 1 << 20),
    ).toHaveLength(3);
    expect((await scanLog(plain)).digest).toBe(digest);
    expect((await readAll(plain)).map((l) => l.type)).toEqual([
      'header',
      'note',
      'tick',
      'snapshot',
      'say',
      'snapshot',
      'snapshot',
      'end',
    ]);
    const written = loadParentIndex(plain);
    expect(written?.snapshots.map((x) => x.seq)).toEqual([3, 5, 6]);
    expect(written).toEqual(await buildIndex(plain));
  });

  it('reports the writer state through its getters', async () => {
    const path = tmp('ndjson.gz');
    const writer = LogWriter.create(path, HEADER);
    expect(writer.seq).toBe(0);
    expect(writer.format).toBe('grapevine-log/3');
    appendEvents(writer, 1, 12);
    expect(writer.seq).toBe(12);
    const digest = writer.digest;
    expect(writer.close()).toBe(digest);
    expect((await scanLog(path)).digest).toBe(digest);
  });

  it('reads only the header with readHeader', async () => {
    const path = tmp('ndjson.gz');
    writeSample(path, 10);
    expect(await readHeader(path)).toEqual({
      ...HEADER,
      type: 'header',
      seq: 0,
      t: 0,
      format: 'grapevine-log/3',
    });
  });

  it('skips canonical and hash checks with verify: false, and then has no digest', async () => {
    const path = tmp();
    writeSample(path, 10);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.toString('utf8').replace('"agent":3', '"agent":4'));
    await failure(scanLog(path));
    const gen = readLog(path, { verify: false });
    let step = await gen.next();
    while (!step.done) step = await gen.next();
    expect(step.value).toMatchObject({ lastSeq: 10, digest: null, complete: true });
  });
});

describe('wall-clock fields', () => {
  it('are written but not hashed: logs that differ only in wall have the same digest', async () => {
    const a = tmp();
    const b = tmp('ndjson.gz');
    const plain = writeSample(tmp(), 30);
    expect(writeSample(a, 30, 1)).toBe(plain);
    expect(writeSample(b, 30, 2)).toBe(plain);
    expect(readFileSync(a, 'utf8')).toContain('"wall":{"latencyMs":4}');
    expect(gunzipSync(readFileSync(b)).toString('utf8')).toContain('"wall":{"latencyMs":5}');
    expect((await scanLog(a)).digest).toBe(plain);
    expect((await scanLog(b)).digest).toBe(plain);
    expect((await readHeader(a)).wall).toEqual({ startedAt: '2024-01-01' });
  });
});

describe('tamper detection', () => {
  it('names the seq of a line changed at any single byte', async () => {
    const path = tmp();
    writeSample(path, 12);
    const bytes = readFileSync(path);
    const start = lineStart(bytes, 4);
    const end = bytes.indexOf(0x0a, start);
    for (let offset = start; offset < end; offset++) {
      writeFileSync(path, withByte(bytes, offset, bytes[offset] === 0x78 ? 0x79 : 0x78));
      const err = await failure(scanLog(path));
      expect(err.position, `byte ${offset - start}: ${err.message}`).toMatchObject({ line: 4, seq: 3 });
      expect(err.message).toContain('seq 3');
      expect(err.exitCode).toBe(2);
    }
  });

  it('reports a changed value, key or h as a break of the hash chain at that line', async () => {
    const path = tmp();
    writeSample(path, 12);
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    const h = lines[5].slice(-18, -2);
    const edits = [
      lines[5].replace('"note":"é✓ 5"', '"note":"é✓ 6"'),
      lines[5].replace('"note"', '"notf"'),
      lines[5].replace(`"h":"${h}"`, `"h":"${h.slice(0, 15)}${h[15] === '0' ? '1' : '0'}"`),
    ];
    for (const edited of edits) {
      writeFileSync(path, text.replace(lines[5], edited));
      const err = await failure(scanLog(path));
      expect(err.message).toContain('line 6 (seq 5, tick 0) does not match the hash chain');
      expect(err.position).toEqual({ line: 6, seq: 5, tick: 0 });
    }
  });

  it('rejects a line that is equal JSON but not the canonical bytes', async () => {
    const path = tmp();
    writeSample(path, 12);
    const text = readFileSync(path, 'utf8');
    const line = text.split('\n')[7];
    const record = JSON.parse(line);
    const { h, ...rest } = record;
    const reordered = JSON.stringify({ type: rest.type, ...rest, h });
    for (const edited of [reordered, line.replace('":', '": ')]) {
      writeFileSync(path, text.replace(line, edited));
      const err = await failure(scanLog(path));
      expect(err.message).toContain('line 8 (seq 7, tick 1) is not in canonical form');
    }
  });

  it('rejects invalid UTF-8, even inside the unhashed wall field', async () => {
    const path = tmp();
    writeSample(path, 12, 1);
    const bytes = readFileSync(path);
    const at = bytes.indexOf('"latencyMs":4}') + '"latencyMs":'.length;
    writeFileSync(path, withByte(bytes, at, 0xff));
    const err = await failure(scanLog(path));
    expect(err.message).toContain('line 4 of');
    expect(err.message).toContain('is not valid UTF-8');
    expect(err.position).toMatchObject({ line: 4, seq: 3 });
  });

  it('names the missing seq when a line is removed, and the repeated one when duplicated', async () => {
    const path = tmp();
    writeSample(path, 20);
    const lines = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, [...lines.slice(0, 10), ...lines.slice(11)].join('\n'));
    let err = await failure(scanLog(path));
    expect(err.message).toContain('expected seq 10 but found seq 11');
    expect(err.position).toEqual({ line: 11, seq: 10, tick: 2 });
    writeFileSync(path, [...lines.slice(0, 11), lines[10], ...lines.slice(11)].join('\n'));
    err = await failure(scanLog(path));
    expect(err.message).toContain('expected seq 11 but found seq 10');
  });

  it('detects an edited header', async () => {
    const path = tmp();
    writeSample(path, 5);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"seed":42', '"seed":43'));
    const err = await failure(scanLog(path));
    expect(err.message).toContain('line 1 (seq 0, tick 0) does not match the hash chain');
  });
});

describe('truncation', () => {
  it('reads a plain log cut in the middle of a line up to its last complete line', async () => {
    const path = tmp();
    writeSample(path, 30);
    const bytes = readFileSync(path);
    for (const cut of [lineStart(bytes, 20) + 1, lineStart(bytes, 31) - 1, lineStart(bytes, 2) + 5]) {
      writeFileSync(path, bytes.subarray(0, cut));
      const complete = bytes.subarray(0, cut).toString('utf8').split('\n').length - 1;
      const lines = await readAll(path);
      expect(lines).toHaveLength(complete);
      const summary = await scanLog(path);
      expect(summary).toMatchObject({
        lastSeq: complete - 1,
        lines: complete,
        truncated: true,
        complete: false,
      });
    }
  });

  it('reads a .gz log cut in the middle of its last member up to its last complete line', async () => {
    const plain = tmp();
    const gz = tmp('ndjson.gz');
    writeSample(plain, 50);
    writeSample(gz, 50);
    const full = (await readAll(plain)).map((l) => l.raw);
    const bytes = readFileSync(gz);
    for (const cut of [bytes.length - 1, bytes.length - 9, bytes.length - 40, Math.floor(bytes.length / 2)]) {
      writeFileSync(gz, bytes.subarray(0, cut));
      const lines = (await readAll(gz)).map((l) => l.raw);
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.length).toBeLessThanOrEqual(full.length);
      expect(lines).toEqual(full.slice(0, lines.length));
      const summary = await scanLog(gz);
      expect(summary).toMatchObject({ lastSeq: lines.length - 1, truncated: true });
    }
  });

  it('keeps every decodable line of a large .gz log cut in its last member', async () => {
    const path = tmp('ndjson.gz');
    const writer = LogWriter.create(path, HEADER);
    // Each line carries ~180 bytes that gzip cannot shrink, so the file passes two read chunks
    // (1 MiB each) with 16k lines instead of the 120k that compressible lines needed.
    for (let seq = 1; seq <= 16_000; seq++) {
      const noise = createHash('sha512').update(`a${seq}`).digest('base64');
      const more = createHash('sha512').update(`b${seq}`).digest('base64');
      writer.append('act', seq >> 8, {
        agent: (seq * 7919) % 10007,
        mood: ((seq * 31) % 97) / 7,
        noise,
        more,
      });
      if ((seq & 255) === 0) writer.flush();
    }
    writer.close();
    const bytes = readFileSync(path);
    expect(bytes.length).toBeGreaterThan(2 * 1024 * 1024);
    const cut = bytes.subarray(0, bytes.length - 100);
    writeFileSync(path, cut);
    const decodable = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    const complete = decodable.split('\n').length - 1;
    expect(await scanLog(path)).toMatchObject({ lines: complete, lastSeq: complete - 1, truncated: true });
    // A slow consumer lets the file be read to its end while the gunzip is still busy.
    const lines = readLog(path, { verify: false });
    let step = await lines.next();
    while (!step.done) {
      if (step.value.seq % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      step = await lines.next();
    }
    expect(step.value).toMatchObject({ lines: complete, truncated: true });
    expect((await readHeader(path)).seed).toBe(42);
  });

  it('treats zero bytes after the last gzip member as a cut-short end, other bytes as damage', async () => {
    const whole = tmp('ndjson.gz');
    writeSample(whole, 20);
    const path = tmp('ndjson.gz');
    const writer = LogWriter.create(path, HEADER);
    appendEvents(writer, 1, 12, 20);
    writer.close();
    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.alloc(4096)]));
    expect(await scanLog(path)).toMatchObject({ lastSeq: 12, truncated: true });
    writeFileSync(path, Buffer.concat([readFileSync(whole), Buffer.alloc(10), readFileSync(whole)]));
    expect((await failure(scanLog(path))).message).toContain('unreadable data at byte');
  });

  it('treats a file that ends exactly at a line or member boundary as whole but incomplete', async () => {
    const path = tmp();
    writeSample(path, 30);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, lineStart(bytes, 12)));
    expect(await scanLog(path)).toMatchObject({ lastSeq: 10, truncated: false, complete: false });
  });
});

describe('files that are not logs', () => {
  it('names a missing file, with a hint', async () => {
    const err = await failure(scanLog(join(dir, 'nope.ndjson')));
    expect(err.message).toBe(`no such log file: ${join(dir, 'nope.ndjson')}`);
    expect(err.hint).not.toBe('');
    expect(err.code).toBe('E_LOG');
  });

  it('rejects an empty file, plain or gzip', async () => {
    for (const ext of ['ndjson', 'ndjson.gz']) {
      const path = tmp(ext);
      writeFileSync(path, '');
      expect((await failure(scanLog(path))).message).toContain('is empty');
    }
  });

  it('rejects JSON that is not a grapevine log', async () => {
    const path = tmp();
    for (const content of ['{"name":"grapevine","version":"0.1.0"}\n', '{\n  "name": "x"\n}\n', '[1,2]\n']) {
      writeFileSync(path, content);
      const err = await failure(scanLog(path));
      expect(err.message).toContain('is not a grapevine log');
      expect(err.position).toMatchObject({ line: 1 });
    }
    writeFileSync(path, '{"format":"grapevine-log/9","seq":0,"t":0,"type":"header"}\n');
    expect((await failure(readHeader(path))).message).toContain(
      'was written by format 9; this grapevine reads formats 1, 2 and 3',
    );
    writeFileSync(path, '{"type":"header"');
    expect((await failure(scanLog(path))).message).toContain('no complete header line');
  });

  it('rejects a .gz file that is not gzip data, and a directory', async () => {
    const plain = tmp();
    writeSample(plain, 5);
    const path = tmp('ndjson.gz');
    writeFileSync(path, readFileSync(plain));
    expect((await failure(scanLog(path))).message).toContain('is not a gzip-compressed grapevine log');
    const misnamed = tmp();
    writeFileSync(misnamed, readFileSync(tmpGz(plain)));
    expect((await failure(scanLog(misnamed))).message).toContain('its name does not end in .gz');
    const sub = join(dir, 'a-directory.ndjson');
    mkdirSync(sub);
    expect((await failure(scanLog(sub))).message).toContain('is a directory');
  });
});

describe('writer errors', () => {
  it('fails clearly when the file cannot be created', () => {
    const blocker = tmp('txt');
    writeFileSync(blocker, 'a file, not a directory');
    expect(() => LogWriter.create(join(blocker, 'sub', 'run.ndjson'), HEADER)).toThrow(LogFormatError);
    expect(() => LogWriter.create(join(blocker, 'sub', 'run.ndjson'), HEADER)).toThrow(
      /cannot create log file/,
    );
  });

  it('creates missing directories', () => {
    const path = join(dir, 'deep', 'er', 'run.ndjson');
    LogWriter.create(path, HEADER).close();
    expect(readFileSync(path, 'utf8')).toContain('"type":"header"');
  });

  it('rejects reserved fields, bad t and type, non-JSON values, and appends after close', () => {
    const writer = LogWriter.create(tmp(), HEADER);
    expect(() => writer.append('act', 1, { seq: 3 })).toThrow(/field seq is set by the log writer/);
    expect(() => writer.append('act', 1, { h: 'x' })).toThrow(LogFormatError);
    expect(() => writer.append('act', Number.NaN)).toThrow(/t must be a finite number/);
    expect(() => writer.append('', 1)).toThrow(/non-empty string/);
    expect(() => writer.append('act', 1, { x: { y: Number.POSITIVE_INFINITY } })).toThrow(
      /seq 1.*non-finite number at \$\.x\.y/,
    );
    expect(() => writer.append('act', 1, { wall: 5 })).toThrow(/wall/);
    expect(writer.seq).toBe(0);
    expect(writer.append('act', 1, { ok: true })).toBe(1);
    writer.close();
    expect(() => writer.append('act', 2)).toThrow(/closed/);
    expect(() => LogWriter.create(tmp(), { type: 'x' })).toThrow(LogFormatError);
  });
});

describe('scale', () => {
  // 100k events cross ~100 flushes and ~100 ticks, every path of the writer and the scan; the
  // population-scale runs (10^6 and more events) are measured in bench/, not here.
  it('writes and reads back a hundred thousand events', async () => {
    const path = tmp();
    const writer = LogWriter.create(path, HEADER);
    const n = 100_000;
    for (let i = 1; i <= n; i++) {
      writer.append('act', i >> 10, { agent: i & 1023, item: 'rumour-1' });
      if ((i & 1023) === 0) writer.flush();
    }
    const digest = writer.close();
    const summary = await scanLog(path);
    expect(summary).toMatchObject({ lastSeq: n, lines: n + 1, lastTick: n >> 10, digest, truncated: false });
    rmSync(path);
  });
});
