// A snapshot's delivery columns are written part by part from the bus's own columns
// (Base64Text), never as one text, and the lines are byte for byte those of the same state
// given as strings (so existing logs keep their digests).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageBus } from '../../src/bus/index.ts';
import {
  Base64Text,
  CanonicalEncoder,
  canonicalJson,
  type Json,
  SeededStream,
  typedToBase64Chunks,
  typedToBase64Texts,
} from '../../src/core/index.ts';
import { splitSnapshotLines } from '../../src/replay/format/snapshot-split.ts';
import { LogWriter, readLog } from '../../src/replay/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('stream');
afterEach(() => {
  delete process.env.GRAPEVINE_LOG_LINE_BOUND;
});

/** Bytes 0..n-1 of a seeded stream. */
function bytes(n: number, seed: string): Uint8Array {
  const rng = new SeededStream(seed);
  return Uint8Array.from({ length: n }, () => rng.int(256));
}

/** A bus with `senders` channel posts of 60 members in flight at ticks 1 and 2, and direct sends. */
function busInFlight(senders: number): MessageBus {
  const rng = new SeededStream('stream-bus');
  const bus = new MessageBus({ size: 60 });
  bus.defineChannel(
    'all',
    Array.from({ length: 60 }, (_, i) => i),
  );
  for (let s = 0; s < senders; s++) {
    bus.post(rng.int(60), rng.int(2), { address: { to: 'channel', channel: 'all' }, kind: 'tell' });
    bus.postTo(rng.int(60), 0, rng.int(60), 'ask', 'rumor');
  }
  return bus;
}

/** The lines of a split snapshot, as canonical JSON. */
function lines(state: Json, chars: number): string[] {
  return [...splitSnapshotLines({ state }, chars, 7)].map((l) =>
    canonicalJson({ type: l.type, ...l.fields }),
  );
}

describe('Base64Text stands for its base64 string', () => {
  it('gives every slice of the string, for lengths around the 3-byte groups', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 29, 30, 31]) {
      const b = bytes(n, `slice-${n}`);
      const text = new Base64Text(b);
      const whole = Buffer.from(b).toString('base64');
      expect(text.length).toBe(whole.length);
      expect(text.toString()).toBe(whole);
      expect(JSON.stringify({ t: text })).toBe(JSON.stringify({ t: whole }));
      for (let from = 0; from <= whole.length; from++)
        for (let to = from; to <= whole.length + 2; to++)
          expect(text.slice(from, to)).toBe(whole.slice(from, to));
    }
  });

  it('is cut into chunks as typedToBase64Chunks cuts the string', () => {
    const view = new Int32Array(bytes(4 * 50, 'chunks').buffer);
    for (const chunk of [16, 20, 400, 4096]) {
      const texts = typedToBase64Texts(view, chunk);
      const strings = typedToBase64Chunks(view, chunk);
      expect(JSON.stringify(texts)).toBe(JSON.stringify(strings));
      expect(new CanonicalEncoder().encode(texts)).toBe(canonicalJson(strings));
    }
  });
});

describe('a bus snapshot is split from views of its columns', () => {
  it('writes the lines of the string form, byte for byte, at every part size', () => {
    for (const chunk of [16, 1024, 4 * 1024 * 1024]) {
      const view = busInFlight(40).exportStateView(chunk);
      const strings = busInFlight(40).exportState(chunk);
      expect(canonicalJson(view)).toBe(canonicalJson(strings));
      for (const chars of [256, 301, 1000, 4096]) expect(lines(view, chars)).toEqual(lines(strings, chars));
    }
  });

  it('never encodes a part cut at whole base64 groups, and another part only when its line is taken', () => {
    let encoded = 0;
    const slice = Base64Text.prototype.slice;
    const counting = function (this: Base64Text, from: number, to?: number) {
      encoded++;
      return slice.call(this, from, to);
    };
    Base64Text.prototype.slice = counting;
    try {
      const state = busInFlight(200).exportStateView();
      // 256 characters are 64 whole groups: each part is a view of the column, left to the writer
      let parts = 0;
      for (const l of splitSnapshotLines({ state }, 256, 1)) if (l.type === 'snapshot-part') parts++;
      expect(parts).toBeGreaterThan(50);
      expect(encoded).toBe(0);
      // 301 characters cut groups: each part's slice is encoded when its line is taken
      const gen = splitSnapshotLines({ state }, 301, 1);
      expect(gen.next().value?.type).toBe('snapshot-part');
      expect(encoded).toBeLessThanOrEqual(1);
      parts = 1;
      for (const l of gen) if (l.type === 'snapshot-part') parts++;
      expect(encoded).toBeGreaterThan(parts / 2);
    } finally {
      Base64Text.prototype.slice = slice;
    }
  });

  it('is written and read back as the string form; a restored bus exports the same state', async () => {
    process.env.GRAPEVINE_LOG_LINE_BOUND = '4096';
    const path = join(dir, 'bus.ndjson');
    const log = LogWriter.create(path, {
      engine: 'grapevine-test',
      world: { id: 'rumor', version: 1 },
      seed: 1,
      params: { n: 60 },
    });
    log.append('tick', 0, {});
    log.append('snapshot', 0, { state: busInFlight(60).exportStateView() });
    log.append('end', 0, {});
    log.close();
    const read = [];
    for await (const line of readLog(path)) read.push(line);
    expect(read.filter((l) => l.type === 'snapshot-part').length).toBeGreaterThan(5);
    const state = read.find((l) => l.type === 'snapshot')!.event.state as Json;
    const expected = busInFlight(60).exportState();
    expect(canonicalJson(state)).toBe(canonicalJson(expected));
    const restored = new MessageBus({ size: 60 });
    restored.importState(state);
    expect(canonicalJson(restored.exportState())).toBe(canonicalJson(busInFlight(60).exportState()));
    const fromView = new MessageBus({ size: 60 });
    fromView.importState(busInFlight(60).exportStateView());
    expect(canonicalJson(fromView.exportState())).toBe(canonicalJson(expected));
  });
});
