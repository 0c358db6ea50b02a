import { describe, expect, it } from 'vitest';
import { canonicalJson, SeededStream } from '../../src/core/index.ts';

/** An independent oracle for plain JSON data: sort keys recursively, then JSON.stringify. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortedCopy((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** A random JSON value; keys are inserted in a random order. */
function randomJson(rng: SeededStream, depth: number): unknown {
  const kind = depth <= 0 ? rng.int(4) : rng.int(6);
  switch (kind) {
    case 0:
      return rng.chance(0.5) ? rng.int(2000) - 1000 : (rng.next() - 0.5) * 1e6;
    case 1:
      return `s${rng.int(100)}${rng.chance(0.2) ? '"\\\n\u00e9\u{1f600}' : ''}`;
    case 2:
      return rng.chance(0.5);
    case 3:
      return null;
    case 4:
      return Array.from({ length: rng.int(4) }, () => randomJson(rng, depth - 1));
    default: {
      const keys = Array.from(
        { length: rng.int(5) },
        (_, k) => `${String.fromCharCode(97 + rng.int(26))}${k}`,
      );
      const obj: Record<string, unknown> = {};
      for (const k of keys) obj[k] = randomJson(rng, depth - 1);
      return obj;
    }
  }
}

/** The same object with its keys inserted in reverse order, recursively. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).reverse())
      out[k] = reversedKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

describe('canonicalJson', () => {
  it('does not depend on key insertion order, at any depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: 2 } })).toBe(
      canonicalJson({ a: { c: 2, d: [1, { y: 1, z: 0 }] }, b: 1 }),
    );
    const rng = new SeededStream('canonical-json');
    for (let n = 0; n < 300; n++) {
      const v = randomJson(rng, 4);
      expect(canonicalJson(reversedKeys(v))).toBe(canonicalJson(v));
    }
  });

  it('equals JSON.stringify of the recursively key-sorted value, without whitespace', () => {
    const rng = new SeededStream('canonical-json-oracle');
    for (let n = 0; n < 300; n++) {
      const v = randomJson(rng, 4);
      const s = canonicalJson(v);
      expect(s).toBe(JSON.stringify(sortedCopy(v)));
      expect(JSON.parse(s)).toEqual(v);
    }
    expect(canonicalJson({ b: [1, 'x'], a: null })).toBe('{"a":null,"b":[1,"x"]}');
  });

  it('sorts keys by code unit (not numerically, not by locale)', () => {
    expect(canonicalJson({ 10: 'a', 9: 'b', B: 1, a: 2, é: 3 })).toBe('{"10":"a","9":"b","B":1,"a":2,"é":3}');
  });

  it('writes -0 as 0, also inside arrays and objects', () => {
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson([-0, 0])).toBe('[0,0]');
    expect(canonicalJson({ a: { b: -0 } })).toBe('{"a":{"b":0}}');
    expect(canonicalJson({ x: -0 })).toBe(canonicalJson({ x: 0 }));
  });

  it('drops undefined properties and writes undefined array slots as null', () => {
    expect(canonicalJson({ a: 1, b: undefined, c: { d: undefined } })).toBe('{"a":1,"c":{}}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson([1, undefined, 2])).toBe('[1,null,2]');
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])('rejects %s, naming where it is', (_name, bad) => {
    expect(() => canonicalJson(bad)).toThrow(TypeError);
    expect(() => canonicalJson({ a: [0, { b: bad }] })).toThrow(/\$\.a\[1\]\.b/);
  });

  it('rejects functions, bigints, symbols and a bare undefined', () => {
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/\$\.f/);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(() => canonicalJson([Symbol('s')])).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it.each([
    ['Uint8Array', new Uint8Array([1, 2])],
    ['Int32Array', new Int32Array(2)],
    ['Float64Array', new Float64Array([0.5])],
    ['DataView', new DataView(new ArrayBuffer(4))],
  ])('rejects a %s (convert it first)', (_name, view) => {
    expect(() => canonicalJson(view)).toThrow(/typed array/);
    expect(() => canonicalJson({ col: view })).toThrow(/\$\.col/);
  });

  // A Map, Set or Date has no enumerable keys: written as `{}`, two different states would
  // serialise (and hash) the same, so non-plain objects throw.
  it.each([
    ['Map', new Map([['a', 1]])],
    ['Set', new Set([1, 2])],
    ['Date', new Date(0)],
  ])('rejects a %s instead of silently writing {}', (_name, value) => {
    expect(() => canonicalJson({ v: value })).toThrow(TypeError);
  });
});
