import { describe, expect, it } from 'vitest';
import { unzeroed } from '../../src/core/index.ts';

describe('unzeroed', () => {
  it('gives a typed array of the asked type and length on a buffer of its own, aligned for its elements', () => {
    for (const [ctor, n] of [
      [Float64Array, 3],
      [Int32Array, 100_000],
      [Uint8Array, 17],
    ] as const) {
      const a = unzeroed(ctor, n);
      expect(a).toBeInstanceOf(ctor);
      expect(a.length).toBe(n);
      expect(a.byteOffset % ctor.BYTES_PER_ELEMENT).toBe(0);
      expect(a.buffer.byteLength).toBe(n * ctor.BYTES_PER_ELEMENT);
      a[n - 1] = 7;
      expect(a[n - 1]).toBe(7);
    }
    // two arrays never share memory (no pooled Buffer slab)
    const x = unzeroed(Int32Array, 4);
    const y = unzeroed(Int32Array, 4);
    x.fill(1);
    y.fill(2);
    expect(Array.from(x)).toEqual([1, 1, 1, 1]);
  });
});
