// A local sweep starts one worker thread per core unless --workers says otherwise: a thread
// per run loaded the world and held a heap in each (60 runs of a small user world took 90 s
// and 2.5 GB instead of 3 s).
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { sweepThreads } from '../../src/sweep/run-sweep.ts';

describe('sweep threads', () => {
  it('defaults to one per core, however many runs there are', () => {
    expect(sweepThreads(undefined, 600)).toBe(availableParallelism());
    expect(sweepThreads(undefined, 1)).toBe(1);
  });
  it('takes the number asked for, capped by the runs, at least one', () => {
    expect(sweepThreads(3, 600)).toBe(3);
    expect(sweepThreads(8, 2)).toBe(2);
    expect(sweepThreads(4, 0)).toBe(1);
  });
});
