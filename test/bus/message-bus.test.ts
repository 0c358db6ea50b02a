import { describe, expect, it } from 'vitest';
import { type Message, MessageBus, type OutgoingMessage } from '../../src/bus/index.ts';
import { ConfigError, RunError, SeededStream } from '../../src/core/index.ts';
import { CsrTopology } from '../../src/network/index.ts';

const tell = (
  address: OutgoingMessage['address'],
  extra: Partial<OutgoingMessage> = {},
): OutgoingMessage => ({
  address,
  kind: 'tell',
  ...extra,
});

/** Takes every agent's inbox; returns agent -> message ids for agents with mail. */
function takeAll(bus: MessageBus): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let i = 0; i < bus.size; i++) {
    const ids = bus
      .take(i)
      .toArray()
      .map((m) => m.id);
    if (ids.length) out.set(i, ids);
  }
  return out;
}

function randomTopology(n: number, edges: number, seed: string): CsrTopology {
  const rng = new SeededStream(seed);
  const src = Array.from({ length: edges }, () => rng.int(n));
  const dst = Array.from({ length: edges }, () => rng.int(n));
  return CsrTopology.fromEdges('random', n, src, dst);
}

describe('MessageBus routing', () => {
  it('delivers a direct message to exactly its addressee', () => {
    const bus = new MessageBus({ size: 10 });
    const sent = bus.send(3, 0, tell({ to: 'agent', id: 7 }, { item: 'rumor', payload: { x: 1 } }));
    expect(sent).toEqual({
      id: 0,
      from: 3,
      route: 'direct',
      kind: 'tell',
      item: 'rumor',
      payload: { x: 1 },
      sentAt: 0,
      deliverAt: 1,
    });
    expect(bus.release(1)).toBe(1);
    expect(Array.from(bus.recipients())).toEqual([7]);
    for (let i = 0; i < 10; i++) expect(bus.hasInbox(i)).toBe(i === 7);
    const inbox = bus.take(7);
    expect(inbox.agent).toBe(7);
    expect(inbox.toArray()).toEqual([sent]);
    expect(takeAll(bus).size).toBe(0);
  });

  it('delivers to exactly the sender’s network neighbours', () => {
    const topo = randomTopology(60, 150, 'nbrs');
    const bus = new MessageBus({ size: 60, topology: topo });
    const rng = new SeededStream('senders');
    for (let tick = 0; tick < 20; tick++) {
      const from = rng.int(60);
      const m = bus.send(from, tick, tell({ to: 'neighbours' }));
      expect(m.route).toBe('neighbours');
      const want = Array.from(topo.neighboursOf(from));
      expect(bus.release(tick + 1)).toBe(want.length);
      expect(Array.from(bus.recipients())).toEqual(want);
      const got = takeAll(bus);
      expect([...got.keys()]).toEqual(want);
      for (const ids of got.values()) expect(ids).toEqual([m.id]);
    }
  });

  it('an isolated agent reaches nobody; the world and a network-less bus cannot use neighbours', () => {
    const topo = CsrTopology.fromEdges('t', 4, [0], [1]);
    const bus = new MessageBus({ size: 4, topology: topo });
    bus.send(3, 0, tell({ to: 'neighbours' }));
    expect(bus.release(1)).toBe(0);
    expect(bus.pendingCount).toBe(0);
    expect(() => bus.send(-1, 1, tell({ to: 'neighbours' }))).toThrow(RunError);
    expect(() => new MessageBus({ size: 4 }).send(0, 0, tell({ to: 'neighbours' }))).toThrow(RunError);
  });

  it('delivers a channel post to its members except the sender', () => {
    const bus = new MessageBus({ size: 10 });
    bus.defineChannel('club', [8, 1, 5, 3]);
    expect(Array.from(bus.channelMembers('club'))).toEqual([1, 3, 5, 8]);
    const m = bus.send(3, 0, tell({ to: 'channel', channel: 'club' }));
    expect(m.route).toBe('channel');
    expect(m.channel).toBe('club');
    bus.release(1);
    expect([...takeAll(bus).keys()]).toEqual([1, 5, 8]);
    bus.send(0, 1, tell({ to: 'channel', channel: 'club' }));
    bus.release(2);
    expect([...takeAll(bus).keys()]).toEqual([1, 3, 5, 8]);
  });

  it('broadcasts to everyone but the sender (the world reaches everyone)', () => {
    const bus = new MessageBus({ size: 6 });
    const m = bus.send(4, 0, tell({ to: 'all' }));
    expect(m.route).toBe('broadcast');
    bus.release(1);
    expect([...takeAll(bus).keys()]).toEqual([0, 1, 2, 3, 5]);
    bus.send(-1, 1, tell({ to: 'all' }));
    bus.release(2);
    expect([...takeAll(bus).keys()]).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('rejects bad addresses with RunError and bad latencies', () => {
    const bus = new MessageBus({ size: 5 });
    for (const id of [5, -1, 1.5, Number.NaN])
      expect(() => bus.send(0, 0, tell({ to: 'agent', id }))).toThrow(RunError);
    expect(() => bus.send(0, 0, tell({ to: 'somewhere' } as never))).toThrow(RunError);
    expect(() => bus.send(0, 0, tell({ to: 'channel', channel: 'nope' }))).toThrow(RunError);
    expect(() => bus.channelMembers('nope')).toThrow(RunError);
    expect(() => bus.defineChannel('bad', [0, 5])).toThrow(RunError);
    expect(() => bus.observe(5)).toThrow(RunError);
    for (const latency of [0, -1, 1.5]) {
      expect(() => bus.send(0, 0, tell({ to: 'agent', id: 1 }, { latency }))).toThrow(RunError);
      expect(() => new MessageBus({ size: 5, latency })).toThrow(ConfigError);
    }
    expect(bus.pendingCount).toBe(0);
    expect(bus.release(1)).toBe(0);
  });
});

describe('MessageBus timing and inboxes', () => {
  it.each([1, 2, 5])('a message sent at t with latency %i is visible at t + latency, not before', (L) => {
    for (const [busLatency, msgLatency] of [
      [L, undefined],
      [1, L],
    ]) {
      const bus = new MessageBus({ size: 3, latency: busLatency });
      const m = bus.send(0, 2, tell({ to: 'agent', id: 1 }, { latency: msgLatency }));
      expect(m.deliverAt).toBe(2 + L);
      for (let t = 1; t < 2 + L; t++) {
        expect(bus.release(t)).toBe(0);
        expect(bus.hasInbox(1)).toBe(false);
        expect(bus.pendingCount).toBe(1);
      }
      expect(bus.release(2 + L)).toBe(1);
      expect(bus.take(1).toArray()).toEqual([m]);
      expect(bus.pendingCount).toBe(0);
    }
  });

  it('keeps send order in every inbox, across routes and latencies', () => {
    const topo = randomTopology(20, 60, 'order');
    const bus = new MessageBus({ size: 20, topology: topo });
    bus.defineChannel('c', [0, 2, 4, 6, 8, 10]);
    const rng = new SeededStream('order-sends');
    const expected = new Map<number, number[]>();
    // messages due at tick 3: some sent at 1 with latency 2, then some sent at 2 with latency 1
    const sends: [number, OutgoingMessage][] = [];
    for (let k = 0; k < 60; k++) {
      const from = rng.int(20);
      const r = rng.int(4);
      const address: OutgoingMessage['address'] =
        r === 0
          ? { to: 'agent', id: rng.int(20) }
          : r === 1
            ? { to: 'neighbours' }
            : r === 2
              ? { to: 'channel', channel: 'c' }
              : { to: 'all' };
      sends.push([from, tell(address, { latency: k < 30 ? 2 : 1 })]);
    }
    const recipientsOf = (from: number, a: OutgoingMessage['address']): number[] => {
      if (a.to === 'agent') return [a.id];
      if (a.to === 'neighbours') return Array.from(topo.neighboursOf(from));
      if (a.to === 'channel') return Array.from(bus.channelMembers('c')).filter((i) => i !== from);
      return Array.from({ length: 20 }, (_, i) => i).filter((i) => i !== from);
    };
    sends.forEach(([from, out], k) => {
      if (k === 30) bus.release(2);
      const m = bus.send(from, k < 30 ? 1 : 2, out);
      for (const i of recipientsOf(from, out.address)) expected.set(i, [...(expected.get(i) ?? []), m.id]);
    });
    bus.release(3);
    const got = takeAll(bus);
    expect(new Map([...got].sort(([a], [b]) => a - b))).toEqual(
      new Map([...expected].sort(([a], [b]) => a - b)),
    );
    for (const ids of got.values()) expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('carries an untaken inbox over to the next tick, before newer messages', () => {
    const bus = new MessageBus({ size: 4 });
    const m1 = bus.send(0, 0, tell({ to: 'all' }));
    bus.release(1);
    expect(bus.take(1).toArray()).toEqual([m1]);
    // agents 2 and 3 do not act at tick 1
    const m2 = bus.send(0, 1, tell({ to: 'agent', id: 2 }));
    const m3 = bus.send(1, 1, tell({ to: 'agent', id: 3 }));
    expect(bus.pendingCount).toBe(4);
    expect(bus.release(2)).toBe(2);
    expect(Array.from(bus.recipients())).toEqual([2, 3]);
    expect(bus.hasInbox(1)).toBe(false);
    expect(bus.take(1).length).toBe(0);
    expect(bus.take(2).toArray()).toEqual([m1, m2]);
    // agent 3 still does not act: everything carries over again, unchanged
    const m4 = bus.send(2, 2, tell({ to: 'agent', id: 3 }));
    bus.release(3);
    expect(bus.take(3).toArray()).toEqual([m1, m3, m4]);
    expect(bus.pendingCount).toBe(0);
    bus.release(4);
    expect(bus.take(3).length).toBe(0);
  });

  it('counts pending envelopes: in flight plus released but not taken', () => {
    const bus = new MessageBus({ size: 5 });
    bus.send(0, 0, tell({ to: 'all' }));
    bus.send(0, 0, tell({ to: 'agent', id: 1 }, { latency: 3 }));
    expect(bus.pendingCount).toBe(5);
    bus.release(1);
    expect(bus.pendingCount).toBe(5);
    bus.take(1);
    bus.take(2);
    expect(bus.pendingCount).toBe(3);
    bus.release(2);
    expect(bus.pendingCount).toBe(3);
    takeAll(bus);
    expect(bus.pendingCount).toBe(1);
    bus.release(3);
    expect(bus.take(1).length).toBe(1);
    expect(bus.pendingCount).toBe(0);
  });

  // The clock may skip ticks (async activation with sparse wakes jumps to ceil(next.time)):
  // `release(t)` then also releases the batches due at the skipped ticks.
  it('releases overdue batches when ticks are skipped', () => {
    const bus = new MessageBus({ size: 3 });
    const a = bus.send(0, 0, tell({ to: 'agent', id: 1 }));
    const b = bus.send(0, 1, tell({ to: 'agent', id: 1 }));
    expect(bus.release(3)).toBe(1);
    expect(bus.take(1).toArray()).toEqual([a, b]);
    expect(bus.pendingCount).toBe(0);
  });
});

describe('MessageBus visibility', () => {
  it('drops and redacts per recipient, leaving other recipients the original', () => {
    const bus = new MessageBus({
      size: 5,
      visibility: (m, to) => (to === 2 ? null : to === 3 ? { ...m, payload: '[redacted]' } : m),
    });
    const m = bus.send(0, 0, tell({ to: 'all' }, { payload: 'secret' }));
    expect(bus.release(1)).toBe(3);
    expect(Array.from(bus.recipients())).toEqual([1, 3, 4]);
    expect(bus.take(1).get(0)).toBe(m);
    expect(bus.take(2).length).toBe(0);
    const redacted = bus.take(3).get(0);
    expect(redacted).toEqual({ ...m, payload: '[redacted]' });
    expect(m.payload).toBe('secret');
    expect(bus.take(4).get(0)).toBe(m);
    expect(bus.pendingCount).toBe(0);
  });

  it('sees the recipient and the whole message', () => {
    const calls: [number, number][] = [];
    const bus = new MessageBus({
      size: 4,
      visibility: (m, to) => {
        calls.push([m.id, to]);
        return m.from === to - 1 ? m : null;
      },
    });
    bus.send(0, 0, tell({ to: 'all' }));
    bus.send(2, 0, tell({ to: 'all' }));
    bus.release(1);
    expect(calls).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 0],
      [1, 1],
      [1, 3],
    ]);
    expect([...takeAll(bus)]).toEqual([
      [1, [0]],
      [3, [1]],
    ]);
  });

  // A delivery carried over in an inbox was filtered at the tick it arrived: a non-idempotent
  // redaction is applied once, however many ticks the recipient waits.
  it('applies the rule once per delivery, also to carried-over inboxes', () => {
    const bus = new MessageBus({ size: 3, visibility: (m) => ({ ...m, payload: `${m.payload}*` }) });
    bus.send(0, 0, tell({ to: 'agent', id: 1 }, { payload: 'x' }));
    bus.release(1);
    bus.release(2);
    bus.release(3);
    expect(
      bus
        .take(1)
        .toArray()
        .map((m) => m.payload),
    ).toEqual(['x*']);
  });
});

describe('MessageBus streams', () => {
  it('observe(i) emits once per take with the whole inbox, and completes on close', () => {
    const bus = new MessageBus({ size: 4 });
    const seen: (readonly Message[])[] = [];
    let completed = false;
    const sub = bus.observe(2).subscribe({ next: (ms) => seen.push(ms), complete: () => (completed = true) });
    const others: (readonly Message[])[] = [];
    bus.observe(1).subscribe((ms) => others.push(ms));
    const a = bus.send(0, 0, tell({ to: 'all' }));
    const b = bus.send(1, 0, tell({ to: 'agent', id: 2 }));
    bus.release(1);
    expect(seen).toEqual([]);
    const took = bus.take(2).toArray();
    expect(seen).toEqual([[a, b]]);
    expect(seen[0]).toEqual(took);
    bus.take(2);
    expect(seen.length).toBe(1);
    const c = bus.send(3, 1, tell({ to: 'all' }));
    bus.release(2);
    bus.release(3);
    bus.take(2);
    expect(seen).toEqual([[a, b], [c]]);
    // agent 1 took nothing until now: one emission with everything carried over
    bus.take(1);
    expect(others).toEqual([[a, c]]);
    expect(completed).toBe(false);
    bus.close();
    expect(completed).toBe(true);
    sub.unsubscribe();
  });

  it('events$ reports every send with its recipient count and every observed inbox', () => {
    const bus = new MessageBus({ size: 4 });
    const events: unknown[] = [];
    bus.events$.subscribe((e) =>
      events.push(
        e.type === 'sent'
          ? [e.type, e.tick, e.message.id, e.recipients]
          : e.type === 'observed'
            ? [e.type, e.tick, e.agent, e.messages.length]
            : [e.type],
      ),
    );
    bus.send(0, 0, tell({ to: 'all' }));
    bus.send(0, 0, tell({ to: 'agent', id: 3 }));
    bus.release(1);
    bus.take(3);
    bus.take(0);
    expect(events).toEqual([
      ['sent', 0, 0, 3],
      ['sent', 0, 1, 1],
      ['observed', 1, 3, 2],
    ]);
  });
});
