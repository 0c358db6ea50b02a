import { describe, expect, it } from 'vitest';
import { MessageBus } from '../../src/bus/index.ts';
import { SeededStream } from '../../src/core/index.ts';

describe('delivery arrays grown past their first capacities', () => {
  it('keep every message and row (the arrays are not zeroed: only written rows are read)', () => {
    const size = 3000;
    const bus = new MessageBus({ size });
    const rng = new SeededStream('growth');
    const items = ['fact', 'rumor'];
    // three ticks of rising volume: the batches grow 8-fold several times, and are reused
    for (let tick = 0; tick < 3; tick++) {
      const expected = new Map<number, { from: number; kind: string; item: string }[]>();
      const sends = 2000 * 8 ** tick;
      for (let s = 0; s < sends; s++) {
        const from = rng.int(size);
        const to = rng.int(size);
        const item = items[s % 2];
        const kind = s % 3 === 0 ? 'ack' : 'tell';
        bus.postTo(from, tick, to, kind, item);
        if (!expected.has(to)) expected.set(to, []);
        expected.get(to)!.push({ from, kind, item });
      }
      bus.release(tick + 1);
      const who = Array.from(bus.recipients());
      expect(who).toEqual([...expected.keys()].sort((a, b) => a - b));
      for (const i of who) {
        const inbox = bus.take(i);
        const got = Array.from({ length: inbox.length }, (_, k) => ({
          from: inbox.fromOf(k),
          kind: inbox.kindOf(k),
          item: inbox.itemOf(k),
        }));
        expect(got).toEqual(expected.get(i));
      }
    }
  });
});
