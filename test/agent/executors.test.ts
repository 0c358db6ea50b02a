import { describe, expect, it } from 'vitest';
import { type AgentExecutor, ColumnarExecutor, XStateExecutor } from '../../src/agent/index.ts';
import { ConfigError, canonicalJson } from '../../src/core/index.ts';
import { runWorld } from '../../src/world/index.ts';
import { world as rumorWorld } from '../../worlds/rumor/index.ts';
import { CaptureLog } from '../clock/capture-log.ts';
import {
  apply,
  eventsOf,
  executorContract,
  expectSameAgent,
  expectSamePopulation,
  MACHINES,
  type MakeExecutor,
  randomOps,
} from './executor.case.ts';

const makeXState: MakeExecutor = (m, size) => new XStateExecutor(m, size);
const makeColumnar: MakeExecutor = (m, size) => new ColumnarExecutor(m, size);

describe('XStateExecutor', () => {
  executorContract(makeXState);
});

describe('ColumnarExecutor', () => {
  executorContract(makeColumnar);

  it('keeps numeric memory only, in declared slots', () => {
    const ex = new ColumnarExecutor(MACHINES.gossip, 3);
    expect(() => ex.setMemory(0, 'count', 'ten')).toThrow(ConfigError);
    expect(() => ex.setMemory(0, 'undeclared', 1)).toThrow(ConfigError);
    expect(ex.column('count')).toBeInstanceOf(Int32Array);
    expect(ex.column('small')).toBeInstanceOf(Uint8Array);
    expect(ex.column('weight')).toBeInstanceOf(Float64Array);
    expect(ex.column('plain')).toBeInstanceOf(Float64Array);
  });

  it('moves its state change mark on state changes only, its change mark on every change', () => {
    const ex = new ColumnarExecutor(MACHINES.gossip, 3);
    const marks = () => [ex.changeCount(), ex.stateChangeCount()];
    const start = marks();
    ex.setSlot(0, ex.layout.slot('count'), 5); // memory only
    expect(marks()).toEqual([start[0] + 1, start[1]]);
    ex.setSlot(0, ex.layout.slot('count'), 5); // the same value: no change
    ex.send(0, 'FORGET'); // no transition from ignorant
    expect(marks()).toEqual([start[0] + 1, start[1]]);
    ex.send(0, 'HEAR'); // item and mood change: one event, one state change
    expect(ex.stateChangeCount()).toBe(start[1] + 1);
    expect(ex.changeCount()).toBe(start[0] + 3);
    ex.restore(1, ex.snapshot(0)); // two regions differ
    expect(ex.stateChangeCount()).toBe(start[1] + 3);
    ex.restore(1, ex.snapshot(0)); // the same state again
    expect(ex.stateChangeCount()).toBe(start[1] + 3);
  });
});

const SIZE = 50;

describe('XState and columnar executors agree (conformance)', () => {
  for (const [name, machine] of Object.entries(MACHINES)) {
    const keys = Object.keys(machine.spec.memory ?? {});

    it(`${name}: same state, activity, counts, memory, snapshots and digest after every event`, () => {
      const xs = new XStateExecutor(machine, SIZE);
      const col = new ColumnarExecutor(machine, SIZE);
      expectSamePopulation(xs, col);
      for (const seed of ['a', 'b']) {
        const ops = randomOps(machine.spec, SIZE, 1500, `conformance-${name}-${seed}`);
        ops.forEach((op) => {
          // copies cross executors: each side restores the other's snapshot
          expect(apply(col, xs, op)).toBe(apply(xs, col, op));
          expectSameAgent(xs, col, op.i, keys);
          expectSamePopulation(xs, col);
        });
      }
      for (let i = 0; i < SIZE; i++) expectSameAgent(xs, col, i, keys);
    });

    it(`${name}: a population snapshot moved to the other executor continues identically`, () => {
      const ops = randomOps(machine.spec, SIZE, 1600, `handoff-${name}`, false);
      const pairs: [AgentExecutor, AgentExecutor][] = [
        [new XStateExecutor(machine, SIZE), new ColumnarExecutor(machine, SIZE)],
        [new ColumnarExecutor(machine, SIZE), new XStateExecutor(machine, SIZE)],
      ];
      for (const [from, to] of pairs) {
        for (const op of ops.slice(0, 800)) apply(from, from, op);
        for (let i = 0; i < SIZE; i++) to.restore(i, JSON.parse(JSON.stringify(from.snapshot(i))));
        expectSamePopulation(from, to);
        for (let i = 0; i < SIZE; i++) expectSameAgent(from, to, i, keys);
        for (const op of ops.slice(800)) {
          expect(apply(to, to, op)).toBe(apply(from, from, op));
          expectSameAgent(from, to, op.i, keys);
        }
        expectSamePopulation(from, to);
      }
    });
  }

  it('agree on the compiled event set: unknown events change nothing on either', () => {
    const xs = new XStateExecutor(MACHINES.gossip, 2);
    const col = new ColumnarExecutor(MACHINES.gossip, 2);
    expect(eventsOf(MACHINES.gossip.spec)).toContain('UNKNOWN_EVENT');
    expect(xs.send(0, 'UNKNOWN_EVENT')).toBe(false);
    expect(col.send(0, 'UNKNOWN_EVENT')).toBe(false);
    expect(col.table.eventIndex.has('UNKNOWN_EVENT')).toBe(false);
    expectSamePopulation(xs, col);
  });

  // Was a bug in the first version (XState kept the raw number); the current src coerces.
  it('store out-of-range values of typed slots the same way', () => {
    const writes: [string, number][] = [
      ['small', 300],
      ['small', -1],
      ['small', 2.7],
      ['count', 2.5],
      ['count', 2 ** 31],
    ];
    for (const [key, value] of writes) {
      const outcome = (ex: AgentExecutor): unknown => {
        try {
          ex.setMemory(0, key, value);
          return ex.getMemory(0, key);
        } catch (err) {
          return (err as Error).name;
        }
      };
      const xs = new XStateExecutor(MACHINES.gossip, 1);
      const col = new ColumnarExecutor(MACHINES.gossip, 1);
      expect(outcome(xs), `${key} = ${value}`).toBe(outcome(col));
      expect(canonicalJson(xs.snapshot(0))).toBe(canonicalJson(col.snapshot(0)));
      expect(xs.stateHash()).toBe(col.stateHash());
    }
  });

  it('the rumour world logs the same lines on both executors', async () => {
    const logs: CaptureLog[] = [];
    for (const executor of ['columnar', 'xstate']) {
      const log = new CaptureLog();
      await runWorld(rumorWorld, {
        params: { n: 200, executor },
        ticks: 25,
        level: 'full',
        openLog: () => log,
      });
      logs.push(log);
    }
    expect(logs[0].events('act').length).toBeGreaterThan(50);
    // snapshots hold each executor's own encoding of the same state; every other line must match
    const comparable = (log: CaptureLog) => log.events().filter((l) => l.type !== 'snapshot');
    expect(comparable(logs[1])).toEqual(comparable(logs[0]));
    expect(logs[0].events('snapshot').length).toBe(1);
  });
});

describe('XStateExecutor.setMemories', () => {
  const writes: [string, unknown][] = [
    ['notes', { seen: ['a', 'b'] }],
    ['count', 3],
    ['heard', 'x'],
    ['weight', -0],
    ['zeta', [1, 2]],
  ];

  it('leaves the same state, snapshot, key order and digest as one setMemory per entry', () => {
    const one = new XStateExecutor(MACHINES.gossip, 4);
    const batch = new XStateExecutor(MACHINES.gossip, 4);
    for (const [k, v] of writes) one.setMemory(2, k, v as never);
    batch.setMemories(2, writes as never);
    expectSameAgent(one, batch, 2, ['notes', 'count', 'heard', 'weight', 'zeta']);
    expect(Object.keys(batch.snapshot(2).context.mem)).toEqual(Object.keys(one.snapshot(2).context.mem));
    expect(batch.stateHash()).toBe(one.stateHash());
  });

  it('fails at the same entry, after the same writes, when a numeric slot gets a non-number', () => {
    const bad: [string, unknown][] = [
      ['notes', 'kept'],
      ['count', 'ten'],
      ['zeta', 'never'],
    ];
    const one = new XStateExecutor(MACHINES.gossip, 2);
    const batch = new XStateExecutor(MACHINES.gossip, 2);
    const perKey = () => {
      for (const [k, v] of bad) one.setMemory(0, k, v as never);
    };
    expect(perKey).toThrow(ConfigError);
    expect(() => batch.setMemories(0, bad as never)).toThrow(ConfigError);
    expect(canonicalJson(batch.snapshot(0))).toBe(canonicalJson(one.snapshot(0)));
    expect(batch.getMemory(0, 'notes')).toBe('kept');
    expect(batch.getMemory(0, 'zeta')).toBeUndefined();
  });
});
