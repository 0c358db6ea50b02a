import { describe, expect, it } from 'vitest';
import { MessageBus } from '../../src/bus/index.ts';
import { SeededStream } from '../../src/core/index.ts';

const SMALL = 1_000;
const BIG = 1_000_000;

/** Sends `n` direct messages to random agents at `tick`, releases them, and takes every inbox. */
function directRound(bus: MessageBus, tick: number, n: number, rng: SeededStream): number {
  for (let k = 0; k < n; k++)
    bus.send(rng.int(bus.size), tick, { address: { to: 'agent', id: rng.int(bus.size) }, kind: 'k' });
  bus.release(tick + 1);
  const recipients = bus.recipients();
  let taken = 0;
  for (let k = 0; k < recipients.length; k++) taken += bus.take(recipients[k]).length;
  return taken;
}

function bestTime(bus: MessageBus, n: number, reps: number): number {
  const rng = new SeededStream('cost');
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < reps; r++) {
    const start = process.hrtime.bigint();
    const taken = directRound(bus, 2 * r, n, rng);
    best = Math.min(best, Number(process.hrtime.bigint() - start));
    expect(taken).toBe(n);
  }
  return best;
}

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

  it('10,000 direct sends + release + take cost about the same at 1e3 and 1e6 agents', () => {
    const small = new MessageBus({ size: SMALL });
    const big = new MessageBus({ size: BIG });
    bestTime(small, 10_000, 3);
    bestTime(big, 10_000, 3);
    const ratio = bestTime(big, 10_000, 7) / bestTime(small, 10_000, 7);
    expect(ratio).toBeLessThan(5);
  });
});
