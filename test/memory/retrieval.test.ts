import { describe, expect, it } from 'vitest';
import { ConfigError, RunError } from '../../src/core/index.ts';
import {
  compareScored,
  DEFAULT_DECAY,
  type MemoryEntry,
  recencyOf,
  resolveWeights,
  scoreMemories,
} from '../../src/memory/index.ts';

const entry = (id: number, t: number, importance: number): MemoryEntry => ({
  id,
  t,
  kind: 'observation',
  text: `m${id}`,
  importance,
});

describe('scoreMemories', () => {
  it('adds weighted recency, importance / 10 and relevance', () => {
    const [s] = scoreMemories([entry(0, 10, 6)], [0.5], { now: 30, weights: { recency: 2, relevance: 3 } });
    expect(s.recency).toBe(0.99 ** 20);
    expect(s.importance).toBe(0.6);
    expect(s.relevance).toBe(0.5);
    expect(s.score).toBe(2 * 0.99 ** 20 + 0.6 + 1.5);
  });

  it('clamps relevance to [0, 1] and treats non-finite as 0; future memories have recency 1', () => {
    const scored = scoreMemories([entry(0, 5, 1), entry(1, 5, 1), entry(2, 5, 1)], [7, -1, Number.NaN], {
      now: 0,
    });
    expect(scored.map((s) => [s.entry.id, s.relevance, s.recency])).toEqual([
      [0, 1, 1],
      [2, 0, 1],
      [1, 0, 1],
    ]);
  });

  it('sorts best first with ties to the newer id: a total order', () => {
    const entries = [entry(4, 0, 5), entry(9, 0, 5), entry(1, 0, 5), entry(7, 0, 8)];
    const ids = scoreMemories(entries, [0, 0, 0, 0], { now: 0 }).map((s) => s.entry.id);
    expect(ids).toEqual([7, 9, 4, 1]);
    const reversed = scoreMemories([...entries].reverse(), [0, 0, 0, 0], { now: 0 }).map((s) => s.entry.id);
    expect(reversed).toEqual(ids);
    const [a, b] = scoreMemories(entries.slice(0, 2), [0, 0], { now: 0 });
    expect(compareScored(a, b)).toBeLessThan(0);
    expect(compareScored(b, a)).toBeGreaterThan(0);
  });

  it('validates its inputs', () => {
    expect(() => scoreMemories([entry(0, 0, 1)], [], { now: 0 })).toThrow(RunError);
    expect(() => scoreMemories([], [], { now: 0, decay: 0 })).toThrow(ConfigError);
    expect(() => resolveWeights({ importance: Number.NaN })).toThrow(ConfigError);
    expect(resolveWeights({ relevance: 2 })).toEqual({ recency: 1, importance: 1, relevance: 2 });
  });
});

describe('recencyOf', () => {
  it('decays per tick', () => {
    expect(recencyOf(100, 100, DEFAULT_DECAY)).toBe(1);
    expect(recencyOf(100, 0, DEFAULT_DECAY)).toBeCloseTo(0.366, 3);
    expect(recencyOf(100, 0, 1)).toBe(1);
  });
});
