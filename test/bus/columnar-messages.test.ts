import { describe, expect, it } from 'vitest';
import { type Message, MessageBus } from '../../src/bus/index.ts';
import { SeededStream } from '../../src/core/index.ts';

/** Fields of a message as plain data (undefined fields dropped, as logs and snapshots see them). */
const plain = (m: Message) => JSON.parse(JSON.stringify(m));

describe('messages stored as typed columns', () => {
  it('post/postTo give the ids send/sendTo would, and the inbox reads the same fields with or without objects', () => {
    const rng = new SeededStream('columns');
    const a = new MessageBus({ size: 50 });
    const b = new MessageBus({ size: 50 });
    const kinds = ['tell', 'ack', 'say'];
    const items = [undefined, 'fact', 'rumor'];
    for (let s = 0; s < 400; s++) {
      const from = rng.int(50);
      const to = rng.int(50);
      const kind = kinds[rng.int(3)];
      const item = items[rng.int(3)];
      const payload = rng.chance(0.2) ? { n: s } : undefined;
      const tick = rng.int(3);
      const sent = a.sendTo(from, tick, to, kind, item, payload);
      expect(b.postTo(from, tick, to, kind, item, payload)).toBe(sent.id);
    }
    for (let t = 1; t <= 4; t++) {
      expect(b.release(t)).toBe(a.release(t));
      const who = Array.from(a.recipients());
      expect(Array.from(b.recipients())).toEqual(who);
      for (const i of who) {
        const objects = a.take(i).toArray().map(plain);
        const inbox = b.take(i);
        const fields = Array.from({ length: inbox.length }, (_, k) => ({
          from: inbox.fromOf(k),
          kind: inbox.kindOf(k),
          item: inbox.itemOf(k),
        }));
        expect(fields).toEqual(objects.map((m) => ({ from: m.from, kind: m.kind, item: m.item })));
        expect(inbox.toArray().map(plain)).toEqual(objects);
      }
    }
  });

  it('builds one object per message: recipients of a neighbourhood send share it', () => {
    const bus = new MessageBus({ size: 4 });
    bus.defineChannel('c', [0, 1, 2, 3]);
    const id = bus.post(0, 0, { address: { to: 'channel', channel: 'c' }, kind: 'say', payload: 'hi' });
    bus.release(1);
    const got = [1, 2, 3].map((i) => bus.take(i).get(0));
    expect(got[0]).toBe(got[1]);
    expect(got[1]).toBe(got[2]);
    expect(plain(got[0])).toEqual({
      id,
      from: 0,
      route: 'channel',
      channel: 'c',
      kind: 'say',
      payload: 'hi',
      sentAt: 0,
      deliverAt: 1,
    });
  });

  it('a redacted copy from the visibility rule is what the inbox reads, field by field', () => {
    const bus = new MessageBus({
      size: 3,
      visibility: (m, to) => (to === 2 ? { ...m, kind: 'muffled', item: undefined } : m),
    });
    bus.postTo(0, 0, 1, 'tell', 'rumor');
    bus.postTo(0, 0, 2, 'tell', 'rumor');
    bus.release(1);
    const one = bus.take(1);
    expect([one.kindOf(0), one.itemOf(0)]).toEqual(['tell', 'rumor']);
    const two = bus.take(2);
    expect([two.kindOf(0), two.itemOf(0), two.fromOf(0)]).toEqual(['muffled', undefined, 0]);
    expect(two.get(0).kind).toBe('muffled');
  });

  it('carries untaken mail over reused batches without mixing ticks', () => {
    const bus = new MessageBus({ size: 5 });
    for (let t = 0; t < 20; t++) {
      bus.postTo(t % 5, t, (t + 1) % 5, 'tell', `item-${t}`);
      bus.release(t + 1);
      // agent 0 never reads: its inbox keeps growing by one message every fifth tick
      for (const i of Array.from(bus.recipients()))
        if (i !== 0) expect(bus.take(i).itemOf(0)).toBe(`item-${t}`);
    }
    const kept = bus.take(0);
    expect(kept.toArray().map((m) => m.item)).toEqual(['item-4', 'item-9', 'item-14', 'item-19']);
  });
});
