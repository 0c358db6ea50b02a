import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import { wattsStrogatz } from '../../src/network/index.ts';

describe('scale', () => {
  it('builds a Watts-Strogatz network of 200,000 agents with k = 10', () => {
    const t = wattsStrogatz({ n: 200_000, k: 10, beta: 0.1 }, new SeededStream('scale'));
    expect(t.size).toBe(200_000);
    expect(t.edgeCount).toBe(1_000_000);
    expect(t.byteLength / t.size).toBeLessThan(100);
  });
});
