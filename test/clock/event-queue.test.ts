import { describe, expect, it } from 'vitest';
import { type ClockEvent, EventQueue } from '../../src/clock/index.ts';
import { SeededStream } from '../../src/core/index.ts';

function cmp(a: ClockEvent, b: ClockEvent): number {
  return a.time - b.time || a.priority - b.priority || a.seq - b.seq;
}

function drain(q: EventQueue): ClockEvent[] {
  const out: ClockEvent[] = [];
  for (let e = q.pop(); e; e = q.pop()) out.push(e);
  return out;
}

/** Pushes `n` random events with many ties in time and priority. */
function fill(q: EventQueue, rng: SeededStream, n: number): ClockEvent[] {
  const pushed: ClockEvent[] = [];
  for (let k = 0; k < n; k++) {
    const time = rng.int(20) + (rng.chance(0.3) ? rng.int(4) / 4 : 0);
    const priority = [-10, 0, 10][rng.int(3)];
    pushed.push(q.push(time, rng.chance(0.5) ? 'tick' : 'wake', rng.int(50), priority, k));
  }
  return pushed;
}

describe('EventQueue', () => {
  it('pops in (time, priority, seq) order for random insertions', () => {
    const rng = new SeededStream('queue');
    for (let round = 0; round < 20; round++) {
      const q = new EventQueue();
      const pushed = fill(q, rng, 300);
      expect(q.size).toBe(300);
      const popped = drain(q);
      expect(popped).toEqual([...pushed].sort(cmp));
      expect(q.size).toBe(0);
      expect(q.pop()).toBeUndefined();
      expect(q.peek()).toBeUndefined();
    }
  });

  it('numbers events in push order and returns them filled in', () => {
    const q = new EventQueue();
    const a = q.push(3, 'tick');
    const b = q.push(1, 'wake', 4, 10, 2);
    expect(a).toEqual({ time: 3, priority: 0, seq: 0, kind: 'tick', agent: -1, n: 0 });
    expect(b).toEqual({ time: 1, priority: 10, seq: 1, kind: 'wake', agent: 4, n: 2 });
    expect(q.peek()).toBe(b);
  });

  it('agrees with a sorted list under interleaved pushes and pops', () => {
    const rng = new SeededStream('queue-interleaved');
    const q = new EventQueue();
    const model: ClockEvent[] = [];
    for (let k = 0; k < 3000; k++) {
      if (rng.chance(0.6)) {
        model.push(q.push(rng.int(30), 'e', -1, rng.int(3)));
        model.sort(cmp);
      } else {
        expect(q.pop()).toEqual(model.shift());
      }
      expect(q.peek()).toEqual(model[0]);
      expect(q.size).toBe(model.length);
    }
  });

  it('popUntil removes exactly the events due by then, in order', () => {
    const rng = new SeededStream('pop-until');
    const q = new EventQueue();
    const all = fill(q, rng, 200).sort(cmp);
    let done = 0;
    for (const t of [-1, 0, 2.5, 3, 3, 10.75, 19, 25]) {
      const got = q.popUntil(t);
      const want = all.filter((e) => e.time <= t).slice(done);
      expect(got).toEqual(want);
      done += got.length;
      if (q.peek()) expect(q.peek()!.time).toBeGreaterThan(t);
    }
    expect(done).toBe(200);
  });

  it('rejects non-finite times', () => {
    const q = new EventQueue();
    expect(() => q.push(Number.NaN, 'x')).toThrow(RangeError);
    expect(() => q.push(Number.POSITIVE_INFINITY, 'x')).toThrow(RangeError);
    expect(q.size).toBe(0);
  });

  it('restores from state() (through JSON) with the same pop order and the same next seq', () => {
    const rng = new SeededStream('queue-state');
    const q = new EventQueue();
    fill(q, rng, 150);
    for (let k = 0; k < 40; k++) q.pop();
    const state = JSON.parse(JSON.stringify(q.state()));
    const r = EventQueue.restore(state);
    expect(r.size).toBe(q.size);
    for (const [time, p] of [
      [5, 0],
      [5, -10],
      [0, 0],
      [30, 10],
    ]) {
      const a = q.push(time, 'late', 1, p);
      const b = r.push(time, 'late', 1, p);
      expect(b.seq).toBe(a.seq);
    }
    expect(drain(r)).toEqual(drain(q));
  });

  it('state() is a copy: later changes to the queue do not leak into it', () => {
    const q = new EventQueue();
    q.push(2, 'a');
    q.push(1, 'b');
    const state = q.state();
    const frozen = JSON.stringify(state);
    q.pop()!.time = 99;
    q.push(0, 'c');
    expect(JSON.stringify(state)).toBe(frozen);
    const r = EventQueue.restore(state);
    expect(drain(r).map((e) => e.kind)).toEqual(['b', 'a']);
  });
});
