import { describe, expect, it } from 'vitest';
import { unzeroed } from '../../src/core/index.ts';

function check(a: Int32Array | Float64Array | Uint8Array, bytesPer: number, n: number): void {
  expect(a.length).toBe(n);
  expect(a.byteOffset % bytesPer).toBe(0);
  expect(a.buffer.byteLength).toBe(n * bytesPer);
  a[n - 1] = 7;
  expect(a[n - 1]).toBe(7);
}

describe('unzeroed', () => {
  it('gives a typed array of the asked type and length on a buffer of its own, aligned for its elements', () => {
    const f = unzeroed(Float64Array, 3);
    expect(f).toBeInstanceOf(Float64Array);
    check(f, 8, 3);
    const i = unzeroed(Int32Array, 100_000);
    expect(i).toBeInstanceOf(Int32Array);
    check(i, 4, 100_000);
    const u = unzeroed(Uint8Array, 17);
    expect(u).toBeInstanceOf(Uint8Array);
    check(u, 1, 17);
    // two arrays never share memory (no pooled Buffer slab: a pooled one would share its buffer)
    const x = unzeroed(Int32Array, 4);
    const y = unzeroed(Int32Array, 4);
    expect(x.buffer).not.toBe(y.buffer);
    x.fill(1);
    y.fill(2);
    expect(Array.from(x)).toEqual([1, 1, 1, 1]);
  });
});
