// Issue 15: the deliveries in flight are checked as they grow, against half the
// run's memory budget, at a cost of one addition and one comparison per send.
import { describe, expect, it } from 'vitest';
import {
  BUS_SHARE,
  BusGrowthGuard,
  checkBusStateFits,
  estimateInFlightBytes,
  MessageBus,
} from '../../src/bus/index.ts';
import { ConfigError, type GrapevineError, RunError } from '../../src/core/index.ts';

/** A bus of 50 agents on one channel, held to a budget of `bytes`. */
function channelBus(bytes: number): MessageBus {
  const bus = new MessageBus({ size: 50, memory: { bytes, source: 'given' } });
  bus.defineChannel(
    'all',
    Array.from({ length: 50 }, (_, i) => i),
  );
  return bus;
}

/** Posts to the channel at `tick` until the bus refuses; the error and the rows held before the refused post. */
function fill(bus: MessageBus, tick: number): { err: GrapevineError; rowsBefore: number; posts: number } {
  for (let posts = 0; posts < 10_000; posts++) {
    const rowsBefore = bus.pendingCount;
    try {
      bus.post(posts % 50, tick, { address: { to: 'channel', channel: 'all' }, kind: 'tell' });
    } catch (err) {
      return { err: err as GrapevineError, rowsBefore, posts };
    }
  }
  throw new Error('the bus never refused');
}

describe('deliveries in flight are held to the memory budget as they grow', () => {
  it('refuses at tick 0 as bad input (exit 2), at the first post past the allowance', () => {
    const budget = 200_000;
    const { err, rowsBefore, posts } = fill(channelBus(budget), 0);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.exitCode).toBe(2);
    // 49 rows per post (every member but the sender), one message each
    expect(rowsBefore).toBe(posts * 49);
    expect(estimateInFlightBytes({ rows: rowsBefore, messages: posts, tick: 0 })).toBeLessThanOrEqual(
      budget * BUS_SHARE,
    );
    expect(estimateInFlightBytes({ rows: rowsBefore + 49, messages: posts + 1, tick: 0 })).toBeGreaterThan(
      budget * BUS_SHARE,
    );
    expect(err.message).toMatch(
      new RegExp(
        `^the ${rowsBefore + 49} deliveries \\(${posts + 1} messages\\) in flight at tick 0 need about [\\d.]+ KiB; the run may give them 97\\.7 KiB, half its memory budget of 195\\.3 KiB \\(given\\)$`,
      ),
    );
  });

  it('stops a later tick as a failed run (exit 1) whose hint says how to continue', () => {
    const { err } = fill(channelBus(200_000), 3);
    expect(err).toBeInstanceOf(RunError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(/in flight at tick 3 need about/);
    expect(err.hint).toMatch(/every tick before tick 3: continue it with grapevine resume/);
  });

  it('checks the whole state after 1, 2, 4, ... rows, then once per 65536 rows when far from the allowance', () => {
    const guard = new BusGrowthGuard({ bytes: 1e12, source: 'given' });
    let checks = 0;
    for (let r = 0; r < 300_000; r++)
      if (guard.due(1)) {
        checks++;
        guard.check({ rows: r, messages: r, tick: 1 });
      }
    // 16 checks by row 65,535 (2^16 - 1), then one every 65,536 rows
    expect(checks).toBe(16 + Math.floor((300_000 - 65_535) / 65_536));
  });

  it('a snapshot needs room for its messages only: the columns are written from the bus itself', () => {
    const bus = channelBus(1e9);
    for (let s = 0; s < 30; s++) bus.post(s, 0, { address: { to: 'channel', channel: 'all' }, kind: 'tell' });
    expect(() => checkBusStateFits({ rows: 30 * 49, messages: 30, tick: 0 }, 30 * 400)).not.toThrow();
    expect(() => checkBusStateFits({ rows: 30 * 49, messages: 30, tick: 0 }, 30 * 400 - 1)).toThrow(
      /the 30 messages in flight at tick 0 need about 11\.7 KiB to snapshot/,
    );
    expect(() => bus.exportStateView()).not.toThrow();
  });
});
