import { describe, expect, it } from 'vitest';
import { Base64Text, CanonicalEncoder, canonicalJson } from '../../src/core/index.ts';

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
