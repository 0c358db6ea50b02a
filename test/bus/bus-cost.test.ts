import { describe, expect, it } from 'vitest';
import { MessageBus } from '../../src/bus/index.ts';

const SMALL = 1_000;
const BIG = 1_000_000;

describe('MessageBus cost does not grow with the population', () => {
  it.each([SMALL, BIG])('one direct message is one delivery row and one recipient (size %i)', (size) => {
    const bus = new MessageBus({ size });
    const before = bus.pendingCount;
    bus.send(17, 0, { address: { to: 'agent', id: size - 1 }, kind: 'k' });
    expect(bus.pendingCount - before).toBe(1);
    expect(bus.release(1)).toBe(1);
    expect(bus.recipients().length).toBe(1);
    expect(bus.recipients()[0]).toBe(size - 1);
    expect(bus.take(size - 1).length).toBe(1);
    expect(bus.pendingCount).toBe(0);
    // the next tick touches nothing
    expect(bus.release(2)).toBe(0);
    expect(bus.recipients().length).toBe(0);
  });
  // The timed half (10,000 sends cost about the same at 1e3 and 1e6 agents) is a wall-clock
  // ratio, so it is measured by bench/bus-cost.ts, never asserted here.
});
