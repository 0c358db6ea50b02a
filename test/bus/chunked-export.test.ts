import { describe, expect, it } from 'vitest';
import { type Message, MessageBus } from '../../src/bus/index.ts';
import { base64ToTyped, type Json, SeededStream, typedToBase64Chunks } from '../../src/core/index.ts';

/** Fields of a message as plain data (undefined fields dropped, as logs and snapshots see them). */
const plain = (m: Message) => JSON.parse(JSON.stringify(m));

/** A bus with mail in flight for ticks 1..3: direct sends and channel broadcasts, some left untaken at tick 1. */
function busInFlight(): MessageBus {
  const rng = new SeededStream('chunked-export');
  const bus = new MessageBus({ size: 40 });
  bus.defineChannel(
    'all',
    Array.from({ length: 40 }, (_, i) => i),
  );
  for (let s = 0; s < 120; s++) {
    bus.postTo(rng.int(40), rng.int(3), rng.int(40), 'tell', rng.chance(0.5) ? 'rumor' : undefined);
  }
  bus.post(3, 1, { address: { to: 'channel', channel: 'all' }, kind: 'say', payload: 'hi' });
  bus.release(1);
  for (let i = 0; i < 20; i++) bus.take(i);
  return bus;
}

/** Every delivery of ticks 1..4 (what is left at 1, then each release), as plain messages per recipient with mail. */
function drain(bus: MessageBus): unknown[] {
  const out: unknown[] = [];
  for (let t = 1; t <= 4; t++) {
    if (t > 1) bus.release(t);
    for (const i of Array.from(bus.recipients())) {
      const mail = bus.take(i).toArray().map(plain);
      if (mail.length > 0) out.push([t, i, mail]);
    }
  }
  return out;
}

type Batch = { to: string | string[]; msg: string | string[] };
const batches = (state: Json): Batch[] => {
  const s = state as unknown as { pending: Batch[]; waiting: Batch | null };
  return s.waiting ? [...s.pending, s.waiting] : s.pending;
};

describe('bus export of large delivery columns as base64 chunks', () => {
  it('keeps the single-string form, byte for byte, while a column fits in one chunk', () => {
    const bus = new MessageBus({ size: 4 });
    bus.postTo(0, 0, 1, 'tell');
    bus.postTo(2, 0, 3, 'tell');
    // Int32 LE rows [1, 3] and message indices [0, 1]: the encoding snapshots always had.
    expect(JSON.stringify(bus.exportState())).toBe(
      '{"nextId":2,"releasedTick":0,"pending":[{"deliverAt":1,"messages":[{"id":0,"from":0,"route":"direct","kind":"tell","sentAt":0,"deliverAt":1}' +
        ',{"id":1,"from":2,"route":"direct","kind":"tell","sentAt":0,"deliverAt":1}],"to":"AQAAAAMAAAA=","msg":"AAAAAAEAAAA="}],"waiting":null}',
    );
    const chunked = busInFlight().exportState(16);
    const whole = busInFlight().exportState();
    for (const b of batches(whole)) {
      expect(typeof b.to).toBe('string');
      expect(typeof b.msg).toBe('string');
    }
    expect(batches(chunked).some((b) => Array.isArray(b.to))).toBe(true);
  });

  it('round-trips through import with a lowered chunk size: the same deliveries, the same default export', () => {
    const reference = busInFlight();
    const wholeState = reference.exportState();
    const expected = drain(reference);
    const chunkedState = JSON.parse(JSON.stringify(busInFlight().exportState(16))) as Json;
    for (const b of batches(chunkedState)) {
      for (const column of [b.to, b.msg]) {
        if (Array.isArray(column)) for (const c of column) expect(c.length).toBeLessThanOrEqual(16);
      }
    }
    const restored = new MessageBus({ size: 40 });
    restored.defineChannel(
      'all',
      Array.from({ length: 40 }, (_, i) => i),
    );
    restored.importState(chunkedState);
    expect(JSON.stringify(restored.exportState())).toBe(JSON.stringify(wholeState));
    const again = new MessageBus({ size: 40 });
    again.defineChannel(
      'all',
      Array.from({ length: 40 }, (_, i) => i),
    );
    again.importState(chunkedState);
    expect(drain(again)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(20);
  });

  it('cuts columns into independently decodable chunks and refuses a chunk size that is not a multiple of 4', () => {
    const column = Int32Array.from({ length: 1001 }, (_, i) => i * 7919 - 500);
    const chunks = typedToBase64Chunks(column, 400);
    expect(Array.isArray(chunks)).toBe(true);
    expect((chunks as string[]).length).toBe(Math.ceil(4004 / 300));
    expect(Array.from(base64ToTyped(chunks, Int32Array))).toEqual(Array.from(column));
    expect(Array.from(base64ToTyped((chunks as string[])[0], Int32Array))).toEqual(
      Array.from(column.subarray(0, 75)),
    );
    expect(typedToBase64Chunks(column, 5340)).toBe(Buffer.from(column.buffer).toString('base64'));
    expect(() => typedToBase64Chunks(column, 6)).toThrow(RangeError);
  });
});
