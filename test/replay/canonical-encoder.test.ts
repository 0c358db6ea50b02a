import { describe, expect, it } from 'vitest';
import { Base64Text, CanonicalEncoder, canonicalJson } from '../../src/core/index.ts';
import { LineEncoder } from '../../src/replay/index.ts';

/** A small deterministic PRNG for generating test values (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'a',
  'b',
  'Z',
  'é',
  'a"b',
  'line\nbreak',
  '\u2028',
  '10',
  '9',
  '',
  'zz',
  'type',
  'seq',
  '😀',
  'A',
];
const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 123456789.125, -2.5e-300, Number.MAX_SAFE_INTEGER];

function randomValue(rand: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const kind = Math.floor(rand() * (depth > 3 ? 5 : 8));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return pick(NUMBERS);
    case 3:
      return pick(KEYS) + pick(KEYS);
    case 4:
      return undefined;
    case 5: {
      const n = Math.floor(rand() * 5);
      return Array.from({ length: n }, () => randomValue(rand, depth + 1));
    }
    default: {
      const out: Record<string, unknown> = {};
      const n = Math.floor(rand() * (rand() < 0.2 ? 30 : 6));
      for (let i = 0; i < n; i++)
        out[rand() < 0.5 ? pick(KEYS) : `k${Math.floor(rand() * 40)}`] = randomValue(rand, depth + 1);
      return out;
    }
  }
}

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a throw');
}

describe('CanonicalEncoder', () => {
  it('gives exactly the bytes of canonicalJson on random JSON values', () => {
    const rand = prng(7);
    const encoder = new CanonicalEncoder();
    for (let i = 0; i < 3000; i++) {
      const value = { root: randomValue(rand, 0) };
      expect(encoder.encode(value)).toBe(canonicalJson(value));
    }
  });

  it('matches canonicalJson on edge cases', () => {
    const encoder = new CanonicalEncoder();
    const many: Record<string, number> = {};
    for (let i = 40; i > 0; i--) many[`key${i}`] = i;
    for (const value of [
      {},
      [],
      [undefined],
      { a: undefined },
      -0,
      'x',
      Object.create(null),
      many,
      { b: 1, a: [{ d: 1, c: 2 }] },
    ])
      expect(encoder.encode(value)).toBe(canonicalJson(value));
  });

  it('throws the same error as canonicalJson on values that are not JSON-safe', () => {
    const encoder = new CanonicalEncoder();
    const bad = [
      { a: { b: [1, Number.NaN] } },
      { x: Number.POSITIVE_INFINITY },
      { f: () => 1 },
      { n: 10n },
      { s: Symbol('s') },
      { t: new Uint8Array(2) },
      { d: new Date(0) },
      { m: new Map() },
      undefined,
    ];
    for (const value of bad) {
      expect(() => canonicalJson(value)).toThrow(TypeError);
      expect(() => encoder.encode(value)).toThrow(messageOf(() => canonicalJson(value)));
      expect(encoder.tryEncode(value)).toBeUndefined();
    }
  });
});

/** Long strings (16 Ki code units and more) of every kind the pieces encoder tells apart. */
function longStrings(rand: () => number): unknown[] {
  const long = (unit: string) => unit.repeat(Math.ceil((16_384 + Math.floor(rand() * 100)) / unit.length));
  return [
    long('QUJD'), // base64-like: a piece of its own
    long('é✓'), // non-ASCII, no escape
    long('😀'), // surrogate pairs: stringified
    `${long('ab')}\ud800`, // a lone surrogate
    `${long('ab')}"`, // needs an escape
    `${long('ab')}\n`,
    new Base64Text(new Uint8Array(13_000).map((_, i) => i * 7)),
    new Base64Text(new Uint8Array(5)),
  ];
}

describe('CanonicalEncoder.tryEncodePieces', () => {
  it('gives pieces that join to the bytes of canonicalJson, long strings among random values', () => {
    const rand = prng(11);
    const encoder = new CanonicalEncoder();
    const longs = longStrings(rand);
    for (let i = 0; i < 400; i++) {
      const value = {
        root: randomValue(rand, 0),
        cols: Array.from({ length: Math.floor(rand() * 4) }, () => longs[Math.floor(rand() * longs.length)]),
        nested: { a: [longs[i % longs.length], randomValue(rand, 2)], b: randomValue(rand, 1) },
      };
      const pieces = encoder.tryEncodePieces(value);
      expect(pieces?.join('')).toBe(canonicalJson(value));
    }
  });

  it('hands over a long string that needs no escape as the string given, and refuses what canonicalJson refuses', () => {
    const encoder = new CanonicalEncoder();
    const col = 'QUJD'.repeat(5000);
    const pieces = encoder.tryEncodePieces({ b: [col], a: 1 });
    expect(pieces).toEqual(['{"a":1,"b":["', col, '"]}']);
    expect(encoder.tryEncodePieces({ a: [col, Number.NaN] })).toBeUndefined();
    expect(encoder.tryEncodePieces({ t: new Uint8Array(2) })).toBeUndefined();
    expect(encoder.tryEncodePieces(new Map())).toBeUndefined();
    expect(encoder.tryEncodePieces([1, undefined, 'x'])).toEqual(['[1,null,"x"]']);
  });
});

describe('LineEncoder: a long snapshot line written as bytes', () => {
  it('has the bytes and chain of the same line encoded as text, whatever its strings hold', () => {
    const rand = prng(5);
    const longs = longStrings(rand);
    const cols = Array.from({ length: 80 }, (_, i) => longs[i % longs.length]);
    const state = { cols, note: 'é ✓ 😀', tick: 5, z: [{ b: 2, a: [longs[0]] }] };
    const bytes = new LineEncoder().encodeEventForWrite('snapshot', 5, 12, { state }, 'c'.repeat(64));
    const text = new LineEncoder().encodeEvent('snapshot', 5, 12, { state }, 'c'.repeat(64));
    expect('bytes' in bytes && !Array.isArray(bytes.bytes)).toBe(true);
    expect(bytes.chain).toBe(text.chain);
    const written = (bytes as { bytes: Buffer }).bytes;
    expect(written.equals(Buffer.from(`${text.text}\n`, 'utf8'))).toBe(true);
  });
});

describe('LineEncoder: a snapshot state encoded again right after', () => {
  const line = (enc: LineEncoder, type: string, seq: number, fields: Record<string, unknown>) =>
    enc.encodeEvent(type, 5, seq, fields, 'c'.repeat(64)).text;

  it('reuses its JSON only for the same object as the snapshot encoded just before', () => {
    const state = { tick: 5, cols: ['AAAA', 'BBBB'], history: [{ a: 1 }] };
    const enc = new LineEncoder();
    line(enc, 'snapshot', 1, { state });
    // the engine's final snapshot: the very same object, nothing encoded between
    state.cols[0] = 'CCCC'; // (a change here would not be seen: the engine changes nothing)
    const again = line(enc, 'snapshot', 2, { state });
    expect(again).toContain('"AAAA"');
    expect(again).toBe(
      line(new LineEncoder(), 'snapshot', 2, { state: { ...state, cols: ['AAAA', 'BBBB'] } }),
    );

    // another event between the two: encoded afresh
    const enc2 = new LineEncoder();
    line(enc2, 'snapshot', 1, { state });
    state.cols[0] = 'DDDD';
    line(enc2, 'tick', 2, { state: 'x' });
    expect(line(enc2, 'snapshot', 3, { state })).toBe(line(new LineEncoder(), 'snapshot', 3, { state }));
    // another object with the same content: encoded afresh
    const enc3 = new LineEncoder();
    line(enc3, 'snapshot', 1, { state });
    const copy = structuredClone(state);
    copy.cols[1] = 'EEEE';
    expect(line(enc3, 'snapshot', 2, { state: copy })).toContain('"EEEE"');
  });
});

describe('LineEncoder: a long snapshot line encoded again right after, as bytes', () => {
  const bytesOf = (b: Buffer | Buffer[]): Buffer => (Array.isArray(b) ? Buffer.concat(b) : b);
  // over BYTES_ABOVE (1 Mi code units): the writer gets the line as bytes
  const state = { cols: ['A'.repeat(700_000), 'B'.repeat(700_000)], note: 'é ✓', tick: 5 };

  it('gives the bytes and chain a fresh encoder gives, also when seq gains a digit', () => {
    for (const [first, second] of [
      [41, 42],
      [999, 1000],
    ]) {
      const enc = new LineEncoder();
      const a = enc.encodeEventForWrite('snapshot', 5, first, { state }, 'c'.repeat(64));
      const b = enc.encodeEventForWrite('snapshot', 5, second, { state }, a.chain);
      expect(Array.isArray((b as { bytes: unknown }).bytes)).toBe(true); // taken from the line before
      const fresh = new LineEncoder().encodeEventForWrite('snapshot', 5, second, { state }, a.chain);
      expect(b.chain).toBe(fresh.chain);
      // (as text: toEqual on megabyte buffers takes a minute)
      expect(bytesOf((b as { bytes: Buffer | Buffer[] }).bytes).toString('latin1')).toBe(
        bytesOf((fresh as { bytes: Buffer | Buffer[] }).bytes).toString('latin1'),
      );
      // and the line parses back to the state
      const text = bytesOf((b as { bytes: Buffer }).bytes).toString('utf8');
      expect(JSON.parse(text).state).toEqual(state);
    }
  });

  it('encodes afresh after another event, or for another object', () => {
    const enc = new LineEncoder();
    const a = enc.encodeEventForWrite('snapshot', 5, 1, { state }, 'c'.repeat(64));
    enc.encodeEventForWrite('tick', 5, 2, { state: 'x' }, a.chain);
    const c = enc.encodeEventForWrite('snapshot', 5, 3, { state }, a.chain);
    expect(Array.isArray((c as { bytes: unknown }).bytes)).toBe(false);
    const copy = { ...state, tick: 6 };
    const d = enc.encodeEventForWrite('snapshot', 5, 4, { state: copy }, c.chain);
    expect(bytesOf((d as { bytes: Buffer }).bytes).toString('utf8')).toContain('"tick":6');
  });
});

describe('LineEncoder: a long snapshot line written to a sink as it is encoded', () => {
  /** A sink that keeps what it is given, and the sizes of the writes. */
  const collect = () => {
    const sink = { size: -1, writes: [] as number[], chunks: [] as Buffer[] };
    return {
      sink,
      begin: (size: number) => {
        sink.size = size;
      },
      // the encoder reuses its buffer: copy
      write: (bytes: Buffer) => {
        sink.writes.push(bytes.length);
        sink.chunks.push(Buffer.from(bytes));
      },
    };
  };
  const columnBytes = (n: number, seed: number) => {
    const rand = prng(seed);
    return Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
  };

  it('writes the bytes and chain of the line encoded as text, in writes no longer than its buffer', () => {
    const rand = prng(11);
    const longs = longStrings(rand);
    // base64 columns of sizes around the encoder's slices (3·2^14 bytes) and its 256 KiB buffer,
    // not multiples of 3, one a view into the middle of a larger array
    const whole = columnBytes(700_003, 3);
    const state = {
      columns: [1, 49_151, 49_152, 49_153, 300_001, 1_000_000].map(
        (n, i) => new Base64Text(columnBytes(n, i)),
      ),
      view: new Base64Text(whole.subarray(5, 650_000)),
      // a long string with characters of 2 to 4 UTF-8 bytes, longer than the buffer
      text: `${'é✓😀'.repeat(60_000)}x`,
      longs,
      tick: 5,
    };
    for (const [seq, chain] of [
      [12, 'c'.repeat(64)],
      [1000, 'd'.repeat(64)],
    ] as const) {
      const out = collect();
      const streamed = new LineEncoder().encodeEventForWrite('snapshot', 5, seq, { state }, chain, out);
      const text = new LineEncoder().encodeEvent('snapshot', 5, seq, { state }, chain);
      const expected = Buffer.from(`${text.text}\n`, 'utf8');
      expect(streamed).toEqual({ written: expected.length, chain: text.chain });
      expect(out.sink.size).toBe(expected.length - 1);
      expect(Buffer.concat(out.sink.chunks).toString('latin1')).toBe(expected.toString('latin1'));
      expect(out.sink.writes.length).toBeGreaterThan(10);
      expect(Math.max(...out.sink.writes)).toBeLessThanOrEqual(1 << 18);
    }
  });

  it('writes the same line again for the same state right after, and nothing when begin refuses it', () => {
    const state = { columns: [new Base64Text(columnBytes(2_000_000, 9))], tick: 7 };
    const enc = new LineEncoder();
    const first = collect();
    const a = enc.encodeEventForWrite('snapshot', 7, 1, { state }, 'c'.repeat(64), first);
    const second = collect();
    const b = enc.encodeEventForWrite('snapshot', 7, 2, { state }, a.chain, second);
    const fresh = new LineEncoder().encodeEvent('snapshot', 7, 2, { state }, a.chain);
    expect(b.chain).toBe(fresh.chain);
    expect(Buffer.concat(second.sink.chunks).toString('latin1')).toBe(`${fresh.text}\n`);
    // without a sink right after a streamed one: the same line as bytes
    const c = enc.encodeEventForWrite('snapshot', 7, 2, { state }, a.chain);
    expect('bytes' in c && Buffer.concat([c.bytes].flat()).toString('latin1')).toBe(`${fresh.text}\n`);

    const writes: number[] = [];
    const refusing = {
      begin: () => {
        throw new RangeError('too long');
      },
      write: (bytes: Buffer) => writes.push(bytes.length),
    };
    expect(() =>
      new LineEncoder().encodeEventForWrite('snapshot', 7, 1, { state }, 'c'.repeat(64), refusing),
    ).toThrow('too long');
    expect(writes).toEqual([]);
  });
});
