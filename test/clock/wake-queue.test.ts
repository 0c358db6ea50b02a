import { describe, expect, it } from 'vitest';
import { WakeQueue } from '../../src/clock/index.ts';
import { SeededStream } from '../../src/core/index.ts';

/** The reference: a plain map of scheduled agents, scanned for the (time, agent) minimum. */
class Reference {
  readonly at = new Map<number, number>();
  min(): number {
    let best = -1;
    for (const [a, t] of this.at) {
      const bt = best < 0 ? Number.POSITIVE_INFINITY : this.at.get(best)!;
      if (t < bt || (t === bt && a < best)) best = a;
    }
    return best;
  }
}

describe('WakeQueue', () => {
  it('agrees with a scan for the earliest (time, agent) under random sets, re-keys and removals', () => {
    const rng = new SeededStream('wake-queue');
    for (let round = 0; round < 10; round++) {
      const size = 1 + rng.int(200);
      const heap = new WakeQueue(size);
      const ref = new Reference();
      for (let op = 0; op < 3000; op++) {
        const i = rng.int(size);
        const u = rng.next();
        // coarse times: many ties, so the agent tie-break is exercised
        const time = Math.floor(rng.next() * 20) / 4;
        if (u < 0.55) {
          heap.set(i, time);
          ref.at.set(i, time);
        } else if (u < 0.75) {
          heap.remove(i);
          ref.at.delete(i);
        } else if (u < 0.95 && ref.at.size > 0) {
          const top = heap.top();
          expect(top).toBe(ref.min());
          expect(heap.topTime()).toBe(ref.at.get(top));
          heap.remove(top);
          ref.at.delete(top);
        }
        expect(heap.size).toBe(ref.at.size);
        expect(heap.has(i)).toBe(ref.at.has(i));
        expect(heap.time(i)).toBe(ref.at.get(i) ?? 0);
      }
      const drained: number[] = [];
      for (let top = heap.top(); top >= 0; top = heap.top()) {
        expect(top).toBe(ref.min());
        drained.push(top);
        heap.remove(top);
        ref.at.delete(top);
      }
      expect(heap.topTime()).toBe(Number.POSITIVE_INFINITY);
      expect(new Set(drained).size).toBe(drained.length);
    }
  });

  it("keeps each wake's rate through sifts and removals, and draw counts apart from the schedule", () => {
    const rng = new SeededStream('wake-queue-rates');
    const size = 64;
    const heap = new WakeQueue(size);
    const rate = new Map<number, number>();
    const wrong: string[] = [];
    for (let op = 0; op < 5000; op++) {
      const i = rng.int(size);
      if (rng.next() < 0.7) {
        const r = 0.5 + rng.int(8);
        heap.set(i, rng.next() * 10, r);
        rate.set(i, r);
      } else {
        heap.remove(i);
        rate.delete(i);
      }
      // compared in plain code, one expect at the end: 320,000 expects cost seconds
      for (let j = 0; j < size; j++)
        if (heap.rate(j) !== (rate.get(j) ?? 0)) wrong.push(`op ${op}: agent ${j} rate ${heap.rate(j)}`);
    }
    expect(wrong).toEqual([]);
    expect(heap.nextDraw(5)).toBe(0);
    expect(heap.nextDraw(5)).toBe(1);
    heap.clear();
    expect(heap.draws(5)).toBe(2);
    heap.setDraws(5, 9);
    expect(heap.nextDraw(5)).toBe(9);
    expect(heap.draws(6)).toBe(0);
  });

  it('pops in (time, agent) order across far-apart times, growth and shrinkage, and rates that move', () => {
    const rng = new SeededStream('wake-queue-spread');
    const size = 3000;
    const queue = new WakeQueue(size);
    const ref = new Reference();
    let now = 0;
    const check = () => {
      const top = queue.top();
      expect(top).toBe(ref.min());
      if (top >= 0) expect(queue.topTime()).toBe(ref.at.get(top));
    };
    for (let op = 0; op < 20000; op++) {
      const phase = Math.floor(op / 5000); // fill, drain, refill with far-off times, drain
      const u = rng.next();
      if (phase % 2 === 0 && u < 0.8) {
        const i = rng.int(size);
        // mostly near now, sometimes 10^6 further (a whole empty year of buckets to skip)
        const time =
          now + (rng.next() < 0.05 ? 1e6 * rng.next() : -Math.log(1 - rng.next()) / (1 + rng.int(50)));
        queue.set(i, time, 1 + rng.int(50));
        ref.at.set(i, time);
      } else if (ref.at.size > 0) {
        check();
        const top = queue.top();
        now = queue.topTime();
        queue.remove(top);
        ref.at.delete(top);
      }
      expect(queue.size).toBe(ref.at.size);
    }
    check();
  });

  it('clear leaves no agent scheduled', () => {
    const heap = new WakeQueue(10);
    for (let i = 0; i < 10; i++) heap.set(i, 10 - i);
    heap.clear();
    expect(heap.size).toBe(0);
    expect(heap.top()).toBe(-1);
    for (let i = 0; i < 10; i++) expect(heap.has(i)).toBe(false);
    heap.set(3, 1);
    expect(heap.top()).toBe(3);
  });
});
