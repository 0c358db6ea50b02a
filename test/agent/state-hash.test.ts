import { describe, expect, it } from 'vitest';
import { StateHash } from '../../src/agent/state-hash.ts';
import { mix32 } from '../../src/core/index.ts';

/** The hash as first defined (every part mixed on each write): the tables must not change it. */
class ReferenceHash {
  a = 0;
  b = 0;
  change(agent: number, cell: number, from: number, to: number): void {
    if (from === to) return;
    const key = mix32(Math.imul(agent, 0x9e3779b1) ^ mix32(cell + 0x7f4a7c15));
    const hf = valueHash(from);
    const ht = valueHash(to);
    this.a = (this.a - mix32(key ^ hf) + mix32(key ^ ht)) >>> 0;
    this.b = (this.b - mix32(key + hf + 0x85ebca6b) + mix32(key + ht + 0x85ebca6b)) >>> 0;
  }
}

function valueHash(x: number): number {
  const f = new Float64Array([x]);
  const u = new Uint32Array(f.buffer);
  return mix32(u[0] ^ mix32(u[1] + 0x9e3779b9));
}

describe('StateHash', () => {
  it('gives the reference hash for small, large, negative, fractional and signed-zero values and any cell', () => {
    const values = [
      0,
      -0,
      -1,
      -2,
      1,
      2,
      255,
      4094,
      4095,
      4096,
      1e6,
      2 ** 31 - 1,
      -(2 ** 31),
      0.5,
      -0.25,
      1e-300,
      NaN,
    ];
    const cells = [0, 1, 7, 255, 256, 1000];
    const hash = new StateHash();
    const ref = new ReferenceHash();
    let agent = 0;
    for (const cell of cells)
      for (const from of values)
        for (const to of values) {
          agent = (agent * 7 + 13) % 1_000_003;
          hash.change(agent, cell, from, to);
          ref.change(agent, cell, from, to);
          expect(hash.state(), `cell ${cell}: ${from} -> ${to}`).toEqual([ref.a, ref.b]);
        }
    expect(ref.a + ref.b).toBeGreaterThan(0);
  });

  it('tells -0 from 0 as the stored bits do', () => {
    const zero = new StateHash();
    const negative = new StateHash();
    zero.change(3, 2, 1, 0);
    negative.change(3, 2, 1, -0);
    expect(zero.hex()).not.toBe(negative.hex());
  });
});
