import { describe, expect, it } from 'vitest';
import { CanonicalJsonCache } from '../../src/agent/canonical-json-cache.ts';
import { canonicalJson } from '../../src/core/index.ts';

const deepFreeze = <T>(v: T): T => {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
};

describe('CanonicalJsonCache', () => {
  it('writes the bytes of canonicalJson, frozen or not, twice in a row', () => {
    const entry = deepFreeze({ z: 1, a: 'é"\n', t: -0, list: [1, null, undefined, { b: true }] });
    const values: unknown[] = [
      null,
      'x',
      3.5,
      [entry, entry, { k: undefined, j: [entry] }],
      { memory: { entries: [entry], nextId: 4 }, heard: { fact: 'said' }, fallback: false },
    ];
    const cache = new CanonicalJsonCache();
    for (const v of values) {
      expect(cache.write(v)).toBe(canonicalJson(v));
      expect(cache.write(v)).toBe(canonicalJson(v));
    }
  });

  it('writes the same text in pieces, past the piece size too, before and after caching', () => {
    const entries = Array.from({ length: 3000 }, (_, n) => deepFreeze({ id: n, text: `line ${n} "é"` }));
    const big = { memory: deepFreeze({ entries, nextId: 3000 }), heard: { a: [1, undefined, -0] } };
    const cache = new CanonicalJsonCache();
    for (const v of [big, [7, big], 'x', null]) {
      const pieces: string[] = [];
      cache.writeChunks(v, (text) => pieces.push(text));
      expect(pieces.join('')).toBe(canonicalJson(v));
      if (v === big) expect(pieces.length).toBeGreaterThan(1);
      cache.write(v);
    }
    const again: string[] = [];
    cache.writeChunks(big, (text) => again.push(text));
    expect(again.join('')).toBe(canonicalJson(big));
  });

  it('never serves a stale text: a frozen object with a mutable child is written again', () => {
    const child = { n: 1 };
    const shallow = Object.freeze({ child });
    const cache = new CanonicalJsonCache();
    expect(cache.write(shallow)).toBe('{"child":{"n":1}}');
    child.n = 2;
    expect(cache.write(shallow)).toBe('{"child":{"n":2}}');
    const open = { n: 1 };
    expect(cache.write([open])).toBe('[{"n":1}]');
    open.n = 3;
    expect(cache.write([open])).toBe('[{"n":3}]');
  });

  it('refuses what canonicalJson refuses, with the same error', () => {
    const cache = new CanonicalJsonCache();
    for (const bad of [{ a: Number.NaN }, [new Uint8Array(2)], { d: new Date(0) }]) {
      expect(() => canonicalJson(bad)).toThrow(TypeError);
      expect(() => cache.writeChunks(bad, () => {})).toThrow(TypeError);
      expect(() => cache.write(bad)).toThrow(
        (() => {
          try {
            canonicalJson(bad);
          } catch (e) {
            return (e as Error).message;
          }
          return '';
        })(),
      );
    }
  });
});
