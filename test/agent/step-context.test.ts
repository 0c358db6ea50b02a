import { describe, expect, it } from 'vitest';
import { ColumnarExecutor, defineAgentMachine, StepContext, XStateExecutor } from '../../src/agent/index.ts';
import { MessageBus } from '../../src/bus/index.ts';
import { RngStreams, RunError } from '../../src/core/index.ts';
import { ringLattice } from '../../src/network/index.ts';

const machine = defineAgentMachine({
  id: 'ctx',
  regions: {
    item: { initial: 'ignorant', states: { ignorant: { on: { HEAR: 'spreader' } }, spreader: {} } },
  },
  memory: { n: { initial: 0, type: 'i32' }, w: { initial: 0 } },
});

function setupCtx(kind: 'columnar' | 'xstate' = 'columnar') {
  const topology = ringLattice({ n: 8, k: 4 });
  const executor = kind === 'columnar' ? new ColumnarExecutor(machine, 8) : new XStateExecutor(machine, 8);
  const bus = new MessageBus({ size: 8, topology });
  const ctx = new StepContext({ p: 1 }, new RngStreams(7).stepRng('agent'), executor, bus, topology, true);
  return { topology, executor, bus, ctx };
}

describe('StepContext', () => {
  it.each([['columnar'], ['xstate']] as const)('reads and writes only its own agent (%s)', (kind) => {
    const { executor, bus, ctx } = setupCtx(kind);
    bus.release(1);
    ctx.aim(3, 1, bus.take(3));
    expect(ctx.state('item')).toBe('ignorant');
    expect(ctx.emit('HEAR')).toBe(true);
    expect(ctx.is('item', 'spreader')).toBe(true);
    ctx.set('n', 5);
    expect(ctx.num('n')).toBe(5);
    expect(ctx.get('w')).toBe(0);
    ctx.send({ to: 'agent', id: 4 }, 'tell', 'rumor', { text: 'hi' });
    ctx.sendMessage({ address: { to: 'neighbours' }, kind: 'tell', latency: 2 });
    expect(ctx.close()).toEqual({ agent: 3, events: ['HEAR'], memory: { n: 5 }, sent: [0, 1] });
    for (let i = 0; i < 8; i++) {
      expect(executor.stateIndex(i, 1)).toBe(i === 3 ? 1 : 0);
      expect(executor.getMemory(i, 'n')).toBe(i === 3 ? 5 : 0);
    }
    expect(bus.pendingCount).toBe(5);
  });

  it('throws RunError on every write after close(), but still allows reads', () => {
    const { bus, ctx, executor } = setupCtx();
    bus.release(1);
    ctx.aim(2, 1, bus.take(2));
    ctx.close();
    expect(() => ctx.emit('HEAR')).toThrow(RunError);
    expect(() => ctx.set('n', 1)).toThrow(RunError);
    expect(() => ctx.send({ to: 'agent', id: 1 }, 'tell')).toThrow(RunError);
    expect(() => ctx.sendMessage({ address: { to: 'all' }, kind: 'tell' })).toThrow(RunError);
    expect(() => ctx.apply({ events: ['HEAR'] })).toThrow(RunError);
    expect(() => ctx.emit('HEAR')).toThrow(/after the step ended/);
    expect(executor.stateIndex(2, 1)).toBe(0);
    expect(executor.getMemory(2, 'n')).toBe(0);
    expect(bus.pendingCount).toBe(0);
    expect(ctx.state('item')).toBe('ignorant');
    expect(ctx.num('n')).toBe(0);
    // re-aiming opens it again
    ctx.aim(2, 2, bus.emptyInbox());
    expect(ctx.emit('HEAR')).toBe(true);
  });

  it('aims its stream at (agent, tick) of its purpose', () => {
    const { bus, ctx } = setupCtx();
    const reference = new RngStreams(7).stepRng('agent');
    ctx.aim(5, 9, bus.emptyInbox());
    const got = [ctx.rng.next(), ctx.rng.next()];
    expect(got).toEqual([reference.at(5, 9).next(), reference.next()]);
    ctx.aim(5, 10, bus.emptyInbox());
    expect(ctx.rng.next()).not.toBe(got[0]);
  });

  it('sees its own neighbourhood', () => {
    const { bus, ctx, topology } = setupCtx();
    ctx.aim(0, 1, bus.emptyInbox());
    expect(ctx.degree()).toBe(4);
    expect(Array.from({ length: 4 }, (_, k) => ctx.neighbour(k))).toEqual(
      Array.from(topology.neighboursOf(0)),
    );
    for (let k = 0; k < 20; k++) expect(topology.hasEdge(0, ctx.randomNeighbour())).toBe(true);
  });

  it('applies a decision in a fixed order: events, memory by key, then messages', () => {
    const { bus, ctx } = setupCtx();
    ctx.aim(1, 1, bus.emptyInbox());
    ctx.apply({
      messages: [
        { address: { to: 'agent', id: 2 }, kind: 'a' },
        { address: { to: 'all' }, kind: 'b' },
      ],
      memory: { w: 0.25, n: 3 },
      events: ['HEAR', 'NOPE'],
    });
    const record = ctx.close()!;
    expect(record.events).toEqual(['HEAR', 'NOPE']);
    expect(Object.keys(record.memory)).toEqual(['n', 'w']);
    expect(record.sent).toEqual([0, 1]);
    expect(ctx.is('item', 'spreader')).toBe(true);
  });

  it('names the regions it knows when asked for another', () => {
    const { bus, ctx } = setupCtx();
    ctx.aim(0, 1, bus.emptyInbox());
    expect(() => ctx.state('mood')).toThrow(RunError);
    expect(() => ctx.state('mood')).toThrow(/no region "mood"/);
  });
});
