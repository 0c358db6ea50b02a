import { describe, expect, it } from 'vitest';
import { mix32, mix32i, type Rng, RngStreams, SeededStream, StepRng } from '../../src/core/index.ts';

function draws(rng: Rng, n: number): number[] {
  return Array.from({ length: n }, () => rng.next());
}

/** Chi-square statistic of `counts` against a flat expectation. */
function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
}

// 99.9th percentile of chi-square with 9 degrees of freedom is 27.9.
const CHI2_9_999 = 27.9;

describe('RngStreams', () => {
  it('gives the same draws for the same seed, purpose and agent', () => {
    const a = new RngStreams(42);
    const b = new RngStreams(42);
    expect(draws(a.stream('network'), 50)).toEqual(draws(b.stream('network'), 50));
    expect(draws(a.stream('roles', 7), 50)).toEqual(draws(b.stream('roles', 7), 50));
    expect(draws(a.stream('roles', 'x'), 50)).toEqual(draws(b.stream('roles', 'x'), 50));
  });

  it('gives different draws for a different seed, purpose or agent', () => {
    const s = new RngStreams(42);
    const base = draws(s.stream('roles', 7), 20);
    expect(draws(new RngStreams(43).stream('roles', 7), 20)).not.toEqual(base);
    expect(draws(s.stream('network', 7), 20)).not.toEqual(base);
    expect(draws(s.stream('roles', 8), 20)).not.toEqual(base);
    expect(draws(s.stream('roles'), 20)).not.toEqual(base);
    const stepA = new RngStreams(42).stepRng('agent');
    const stepB = new RngStreams(42).stepRng('turns');
    const stepC = new RngStreams(43).stepRng('agent');
    expect(stepA.purposeKey).not.toBe(stepB.purposeKey);
    expect(stepA.purposeKey).not.toBe(stepC.purposeKey);
    expect(draws(stepA.at(3, 5), 10)).not.toEqual(draws(stepB.at(3, 5), 10));
  });

  it('keeps every stream independent of how many draws another made', () => {
    const alone = draws(new RngStreams(9).stream('a', 1), 200);
    const s = new RngStreams(9);
    const a = s.stream('a', 1);
    const b = s.stream('a', 2);
    const c = s.stream('b');
    const mixed: number[] = [];
    const mixer = new SeededStream('mixer');
    while (mixed.length < 200) {
      for (let k = mixer.int(5); k > 0; k--) b.next();
      for (let k = mixer.int(5); k > 0; k--) c.next();
      mixed.push(a.next());
    }
    expect(mixed).toEqual(alone);
  });

  it('derives the same step generator for the same seed and purpose', () => {
    const a = new RngStreams(5).stepRng('agent');
    const b = new RngStreams(5).stepRng('agent');
    expect(a.purposeKey).toBe(b.purposeKey);
    expect(draws(a.at(10, 3), 5)).toEqual(draws(b.at(10, 3), 5));
  });
});

describe('SeededStream', () => {
  it('continues identically after state() and restore(), through a JSON round trip', () => {
    const s = new SeededStream('snap');
    draws(s, 37);
    const state = JSON.parse(JSON.stringify(s.state()));
    const ahead = draws(s, 100);
    const restored = SeededStream.restore(state);
    expect(restored.seed).toBe('snap');
    expect(draws(restored, 100)).toEqual(ahead);
  });

  it('is not affected by later draws of the stream it was saved from', () => {
    const s = new SeededStream('snap2');
    const state = s.state();
    const first = draws(s, 10);
    draws(s, 10);
    expect(draws(SeededStream.restore(state), 10)).toEqual(first);
  });

  it('draws in [0, 1) with mean 0.5 and a flat int(10) histogram', () => {
    const s = new SeededStream('uniform');
    let sum = 0;
    let min = 1;
    let max = 0;
    for (let k = 0; k < 100_000; k++) {
      const u = s.next();
      sum += u;
      min = Math.min(min, u);
      max = Math.max(max, u);
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.01);
    const hist = new Array(10).fill(0);
    for (let k = 0; k < 100_000; k++) hist[s.int(10)]++;
    expect(chiSquare(hist)).toBeLessThan(CHI2_9_999);
  });
});

describe('StepRng', () => {
  it('draws a pure function of (key, agent, tick, k): re-aiming reproduces the draws', () => {
    const rng = new StepRng(0xdeadbeef);
    const first = draws(rng.at(4, 17), 6);
    draws(rng.at(5, 17), 9);
    draws(rng.at(4, 18), 3);
    expect(draws(rng.at(4, 17), 6)).toEqual(first);
    expect(draws(new StepRng(0xdeadbeef).at(4, 17), 6)).toEqual(first);
    // the k-th draw does not depend on what was drawn at other (agent, tick) pairs in between
    const again = rng.at(4, 17);
    const k1 = again.next();
    draws(new StepRng(0xdeadbeef).at(4, 17), 50);
    expect([k1, again.next()]).toEqual(first.slice(0, 2));
  });

  it('gives different draws for another agent, tick or key', () => {
    const rng = new StepRng(123);
    const base = draws(rng.at(4, 17), 4);
    expect(draws(rng.at(5, 17), 4)).not.toEqual(base);
    expect(draws(rng.at(4, 16), 4)).not.toEqual(base);
    expect(draws(rng.at(-1, 17), 4)).not.toEqual(base);
    expect(draws(new StepRng(124).at(4, 17), 4)).not.toEqual(base);
    const seen = new Set<number>();
    for (let a = 0; a < 200; a++) for (let t = 0; t < 50; t++) seen.add(rng.at(a, t).next());
    expect(seen.size).toBeGreaterThan(9990);
  });

  it('has no state beyond its aim: adding an agent does not shift the others', () => {
    const rng = new RngStreams(3).stepRng('agent');
    const small = Array.from({ length: 10 }, (_, a) => rng.at(a, 2).next());
    const big = Array.from({ length: 11 }, (_, a) => rng.at(a, 2).next());
    expect(big.slice(0, 10)).toEqual(small);
  });

  it('is uniform across its draws and across (agent, tick) aims', () => {
    const rng = new RngStreams(11).stepRng('uniform');
    let within = 0;
    rng.at(0, 0);
    for (let k = 0; k < 100_000; k++) within += rng.next();
    expect(Math.abs(within / 100_000 - 0.5)).toBeLessThan(0.01);
    let across = 0;
    let outside = 0; // counted, not one expect per draw: 100k expect calls cost seconds
    const hist = new Array(10).fill(0);
    for (let a = 0; a < 1000; a++) {
      for (let t = 0; t < 100; t++) {
        const u = rng.at(a, t).next();
        if (!(u >= 0 && u < 1)) outside++;
        across += u;
        hist[rng.int(10)]++;
      }
    }
    expect(outside).toBe(0);
    expect(Math.abs(across / 100_000 - 0.5)).toBeLessThan(0.01);
    expect(chiSquare(hist)).toBeLessThan(CHI2_9_999);
  });
});

describe('Rng helpers', () => {
  it('draws exponential waits with mean 1 / rate and chance(p) with frequency p', () => {
    const s = new SeededStream('helpers');
    for (const rate of [0.5, 2]) {
      let sum = 0;
      let negative = 0; // counted, not one expect per draw: 50k expect calls cost seconds
      for (let k = 0; k < 50_000; k++) {
        const w = s.exponential(rate);
        if (!(w >= 0)) negative++;
        sum += w;
      }
      expect(negative).toBe(0);
      expect(sum / 50_000).toBeCloseTo(1 / rate, 1);
    }
    let hits = 0;
    for (let k = 0; k < 50_000; k++) if (s.chance(0.3)) hits++;
    expect(Math.abs(hits / 50_000 - 0.3)).toBeLessThan(0.01);
  });

  it('shuffles into a permutation and picks members', () => {
    const s = new SeededStream('shuffle');
    const items = Array.from({ length: 20 }, (_, i) => i);
    const shuffled = s.shuffle(items.slice()) as number[];
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    const typed = s.shuffle(Int32Array.from(items)) as Int32Array;
    expect(Array.from(typed).sort((a, b) => a - b)).toEqual(items);
    for (let k = 0; k < 100; k++) expect(items).toContain(s.pick(items));
  });
});

describe('mix32i', () => {
  it('has the bits of mix32 as a signed 32-bit integer, for inputs in any 32-bit form', () => {
    const inputs = [0, 1, -1, 0x7fffffff, 0x80000000, 0xffffffff, -0x80000000, 0x9e3779b9 + 0xffffffff];
    const s = new SeededStream('mix32i');
    for (let k = 0; k < 1000; k++) inputs.push(Math.floor(s.next() * 2 ** 33) - 2 ** 32);
    let negative = 0;
    for (const x of inputs) {
      const i = mix32i(x);
      expect(i | 0).toBe(i);
      expect(i >>> 0).toBe(mix32(x));
      if (i < 0) negative++;
    }
    expect(negative).toBeGreaterThan(400); // half the outputs have the top bit set
  });
});
