import { expect, it } from 'vitest';
import {
  type AgentExecutor,
  type AgentMachine,
  type AgentMachineSpec,
  COMMIT,
  defineAgentMachine,
  EncounterBroker,
  LIFE_REGION,
  type MemoryType,
  makeColumn,
  OBSERVE,
  StepContext,
} from '../../src/agent/index.ts';
import { MessageBus } from '../../src/bus/index.ts';
import { canonicalJson, Digest, type Json, RngStreams, SeededStream } from '../../src/core/index.ts';

/** Builds an executor of `size` agents for a machine. */
export type MakeExecutor = (machine: AgentMachine, size: number) => AgentExecutor;

/** The machines every executor is checked on: several regions, active tags, u8/i32/f64 memory. */
export const MACHINES: Record<string, AgentMachine> = {
  gossip: defineAgentMachine({
    id: 'gossip',
    regions: {
      item: {
        initial: 'ignorant',
        states: {
          ignorant: { on: { HEAR: 'spreader', KNOW: 'stifler' } },
          spreader: { tags: ['active'], on: { STIFLE: 'stifler', KNOW: 'stifler' } },
          stifler: { tags: ['done'], on: { FORGET: 'ignorant' } },
        },
      },
      mood: {
        initial: 'calm',
        states: {
          calm: { on: { HEAR: 'curious', PROVOKE: 'angry' } },
          curious: { on: { PROVOKE: 'angry', CALM: 'calm', HEAR: 'curious' } },
          angry: { tags: ['active', 'loud'], on: { CALM: 'calm' } },
        },
      },
      phase: {
        initial: 'a',
        states: {
          a: { on: { TICK: 'b' } },
          b: { on: { TICK: 'c' } },
          c: { on: { TICK: 'a', OBSERVE: 'a' } },
        },
      },
    },
    memory: {
      small: { initial: 7, type: 'u8' },
      count: { initial: -1, type: 'i32' },
      weight: { initial: 0.5, type: 'f64' },
      plain: { initial: 2 },
    },
  }),
  startsActive: defineAgentMachine({
    id: 'starts-active',
    regions: {
      power: {
        initial: 'on',
        states: { on: { tags: ['active'], on: { OFF: 'off' } }, off: { on: { ON: 'on', COMMIT: 'on' } } },
      },
      light: { initial: 'dark', states: { dark: { on: { ON: 'lit' } }, lit: { on: { OFF: 'dark' } } } },
    },
    memory: { level: { initial: 255, type: 'u8' } },
  }),
  chain: defineAgentMachine({
    id: 'chain',
    regions: {
      step: {
        initial: 's0',
        states: Object.fromEntries(
          Array.from({ length: 12 }, (_, k) => [
            `s${k}`,
            { on: { NEXT: `s${(k + 1) % 12}`, RESET: 's0' }, ...(k % 5 === 4 ? { tags: ['active'] } : {}) },
          ]),
        ),
      },
    },
  }),
};

/** Every event the machine knows, the lifecycle events, and one it does not know. */
export function eventsOf(spec: AgentMachineSpec): string[] {
  const events = new Set<string>([OBSERVE, COMMIT, 'UNKNOWN_EVENT']);
  for (const region of Object.values(spec.regions))
    for (const s of Object.values(region.states)) for (const e of Object.keys(s.on ?? {})) events.add(e);
  return [...events].sort();
}

/** A random value of a memory slot's type, inside its range. */
export function randomMemoryValue(type: MemoryType, rng: SeededStream, negativeZero = true): number {
  if (type === 'u8') return rng.int(256);
  if (type === 'i32') return rng.int(2 ** 32) - 2 ** 31;
  if (rng.chance(0.1)) return negativeZero ? -0 : 0;
  return (rng.next() - 0.5) * 10 ** rng.int(12);
}

/**
 * An independent model of what an executor must do: each region a state name, memory a
 * map, transitions read straight from the spec (the lifecycle region is idle <-> deliberating).
 */
export class ReferenceModel {
  readonly regions: string[];
  readonly states: string[][];
  private readonly value: Record<string, string>[];
  private readonly mem: Record<string, number>[];

  constructor(
    readonly spec: AgentMachineSpec,
    readonly size: number,
  ) {
    this.regions = [LIFE_REGION, ...Object.keys(spec.regions)];
    this.states = [
      ['idle', 'deliberating'],
      ...Object.values(spec.regions).map((r) => Object.keys(r.states)),
    ];
    const initialValue = Object.fromEntries([
      [LIFE_REGION, 'idle'],
      ...Object.entries(spec.regions).map(([n, r]) => [n, r.initial]),
    ]);
    const initialMem = Object.fromEntries(Object.entries(spec.memory ?? {}).map(([k, s]) => [k, s.initial]));
    this.value = Array.from({ length: size }, () => ({ ...initialValue }));
    this.mem = Array.from({ length: size }, () => ({ ...initialMem }));
  }

  send(i: number, event: string): boolean {
    let changed = false;
    const v = this.value[i];
    const life: Record<string, Record<string, string>> = {
      idle: { [OBSERVE]: 'deliberating' },
      deliberating: { [COMMIT]: 'idle' },
    };
    for (const name of this.regions) {
      const to =
        name === LIFE_REGION ? life[v[name]][event] : this.spec.regions[name].states[v[name]].on?.[event];
      if (to !== undefined && to !== v[name]) {
        v[name] = to;
        changed = true;
      }
    }
    return changed;
  }

  state(i: number, region: number): string {
    return this.value[i][this.regions[region]];
  }

  isActive(i: number): boolean {
    return Object.entries(this.spec.regions).some(([n, r]) =>
      r.states[this.value[i][n]].tags?.includes('active'),
    );
  }

  /** Stores `value` as the slot's declared type stores it (u8 wraps, i32 truncates). */
  setMemory(i: number, key: string, value: number): void {
    const cell = makeColumn(this.spec.memory?.[key]?.type ?? 'f64', 1, 0);
    cell[0] = value;
    this.mem[i][key] = cell[0];
  }

  getMemory(i: number, key: string): number | undefined {
    return this.mem[i][key];
  }

  restore(i: number, value: Record<string, string>, mem: Record<string, Json>): void {
    this.value[i] = { ...value };
    this.mem[i] = { ...(mem as Record<string, number>) };
  }
}

function digestOf(ex: AgentExecutor): string {
  const d = new Digest();
  ex.digest(d);
  return d.hex();
}

// The helpers below gather what they compare into one plain object per side and assert it with
// a single toEqual (which tells -0 from 0, as toBe does): the conformance and contract tests
// compare after every one of thousands of operations, and vitest's per-expect() bookkeeping
// cost more than the executors themselves when each value had its own expect.

/** What the contract reads of agent `i`, by name: region states, activity, memory, slots. */
interface AgentView {
  agent: number;
  states: Record<string, string>;
  active: boolean;
  mask: number;
  memory: Record<string, Json | undefined>;
  slots: Record<string, number | Json | undefined>;
}

function executorView(
  ex: AgentExecutor,
  i: number,
  regions: readonly string[],
  memoryKeys: string[],
): AgentView {
  const states: Record<string, string> = {};
  regions.forEach((name, r) => {
    states[name] = ex.stateNames(r)[ex.stateIndex(i, r)];
  });
  const memory: Record<string, Json | undefined> = {};
  for (const key of memoryKeys) memory[key] = ex.getMemory(i, key);
  const slots: Record<string, number> = {};
  ex.layout.slots.forEach((key, k) => {
    slots[key] = ex.slot(i, k);
  });
  return { agent: i, states, active: ex.isActive(i), mask: ex.activeMask()[i], memory, slots };
}

function modelView(model: ReferenceModel, i: number, slotKeys: readonly string[]): AgentView {
  const states: Record<string, string> = {};
  model.regions.forEach((name, r) => {
    states[name] = model.state(i, r);
  });
  const memory: Record<string, Json | undefined> = {};
  for (const key of Object.keys(model.spec.memory ?? {})) memory[key] = model.getMemory(i, key);
  const slots: Record<string, number | undefined> = {};
  for (const key of slotKeys) slots[key] = model.getMemory(i, key);
  const active = model.isActive(i);
  return { agent: i, states, active, mask: active ? 1 : 0, memory, slots };
}

/** Asserts that executor `ex` matches the model for agent `i`: states, activity, memory, slots. */
export function expectMatchesModel(ex: AgentExecutor, model: ReferenceModel, i: number): void {
  const keys = Object.keys(model.spec.memory ?? {});
  expect(executorView(ex, i, model.regions, keys)).toEqual(modelView(model, i, ex.layout.slots));
}

/** Asserts population-wide agreement with the model (all agents, counts, active count). */
export function expectPopulationMatchesModel(ex: AgentExecutor, model: ReferenceModel): void {
  const keys = Object.keys(model.spec.memory ?? {});
  const counts = (count: (r: number) => Int32Array) =>
    Object.fromEntries(model.regions.map((name, r) => [name, Array.from(count(r))]));
  const modelCounts = (r: number) => {
    const c = new Int32Array(model.states[r].length);
    for (let i = 0; i < model.size; i++) c[model.states[r].indexOf(model.state(i, r))]++;
    return c;
  };
  const flagged: number[] = [];
  for (let i = 0; i < model.size; i++) if (model.isActive(i)) flagged.push(i);
  expect({
    counts: counts((r) => ex.counts(r)),
    agents: Array.from({ length: model.size }, (_, i) => executorView(ex, i, model.regions, keys)),
    activeCount: ex.activeCount(),
    activeAgents: Array.from(ex.activeAgents()).sort((x, y) => x - y),
  }).toEqual({
    counts: counts(modelCounts),
    agents: Array.from({ length: model.size }, (_, i) => modelView(model, i, ex.layout.slots)),
    activeCount: flagged.length,
    activeAgents: flagged,
  });
}

/** Asserts that two executors agree on agent `i`, its snapshot included. */
export function expectSameAgent(a: AgentExecutor, b: AgentExecutor, i: number, memoryKeys: string[]): void {
  const view = (ex: AgentExecutor) => ({
    ...executorView(ex, i, a.regionNames, memoryKeys),
    stateIndex: a.regionNames.map((_, r) => ex.stateIndex(i, r)),
    snapshot: canonicalJson(ex.snapshot(i)),
  });
  expect(view(b)).toEqual(view(a));
}

/** Asserts that two executors agree on the whole population's aggregates and digest. */
export function expectSamePopulation(a: AgentExecutor, b: AgentExecutor): void {
  const view = (ex: AgentExecutor) => ({
    activeCount: ex.activeCount(),
    stateHash: ex.stateHash(),
    counts: a.regionNames.map((_, r) => Array.from(ex.counts(r))),
    digest: digestOf(ex),
  });
  expect(view(b)).toEqual(view(a));
}

type Op =
  | { kind: 'send'; i: number; event: string; byId: boolean }
  | { kind: 'memory'; i: number; key: string; value: number; bySlot: boolean }
  | { kind: 'copy'; i: number; from: number };

/**
 * A seeded random sequence of operations on `size` agents. `negativeZero: false` keeps -0 out
 * of f64 slots, for tests that pass snapshots through JSON (which writes -0 as 0).
 */
export function randomOps(
  spec: AgentMachineSpec,
  size: number,
  count: number,
  seed: string,
  negativeZero = true,
): Op[] {
  const rng = new SeededStream(seed);
  const events = eventsOf(spec);
  const slots = Object.entries(spec.memory ?? {});
  const ops: Op[] = [];
  for (let k = 0; k < count; k++) {
    const i = rng.int(size);
    const u = rng.next();
    if (u < 0.75 || slots.length === 0) {
      const event = rng.pick(events);
      ops.push({ kind: 'send', i, event, byId: event !== 'UNKNOWN_EVENT' && rng.chance(0.5) });
    } else if (u < 0.95) {
      const [key, slot] = rng.pick(slots);
      const value = randomMemoryValue(slot.type ?? 'f64', rng, negativeZero);
      ops.push({ kind: 'memory', i, key, value, bySlot: rng.chance(0.5) });
    } else ops.push({ kind: 'copy', i, from: rng.int(size) });
  }
  return ops;
}

/** The executor contract, checked against {@link ReferenceModel}. Call inside a `describe`. */
export function executorContract(make: MakeExecutor): void {
  for (const [name, machine] of Object.entries(MACHINES)) {
    it(`${name}: starts every agent in the initial states with the initial memory`, () => {
      const ex = make(machine, 20);
      const model = new ReferenceModel(machine.spec, 20);
      expect(ex.size).toBe(20);
      expect(ex.regionNames).toEqual(model.regions);
      for (let r = 0; r < model.regions.length; r++) expect(ex.stateNames(r)).toEqual(model.states[r]);
      expectPopulationMatchesModel(ex, model);
    });

    it(`${name}: follows the model over a random event sequence`, () => {
      const size = 30;
      const ex = make(machine, size);
      const model = new ReferenceModel(machine.spec, size);
      // -0 is left to its own test below: the model keeps what was written
      const ops = randomOps(machine.spec, size, 1500, `contract-${name}`, false);
      let changes = 0;
      ops.forEach((op, k) => {
        if (op.kind === 'copy') {
          const snap = ex.snapshot(op.from);
          model.restore(op.i, snap.value, snap.context.mem);
        }
        const changed = apply(ex, ex, op);
        if (op.kind === 'send') {
          expect(changed, `op ${k}: ${op.event} to ${op.i}`).toBe(model.send(op.i, op.event));
          if (changed) changes++;
        } else if (op.kind === 'memory') model.setMemory(op.i, op.key, op.value);
        expectMatchesModel(ex, model, op.i);
        if (k % 100 === 99) expectPopulationMatchesModel(ex, model);
      });
      expect(changes).toBeGreaterThan(200);
      expectPopulationMatchesModel(ex, model);
      // the incremental state hash depends on the state only, not on the path to it
      const rebuilt = make(machine, size);
      for (let i = 0; i < size; i++) rebuilt.restore(i, ex.snapshot(i));
      expect(rebuilt.stateHash()).toBe(ex.stateHash());
      expect(make(machine, size).stateHash()).not.toBe(ex.stateHash());
    });
  }

  it('snapshots are plain JSON in the shape of an XState persisted snapshot', () => {
    const ex = make(MACHINES.gossip, 5);
    ex.send(1, 'HEAR');
    ex.setMemory(1, 'count', 42);
    const snap = ex.snapshot(1);
    expect(JSON.parse(canonicalJson(snap))).toEqual({
      status: 'active',
      value: { life: 'idle', item: 'spreader', mood: 'curious', phase: 'a' },
      historyValue: {},
      context: { mem: { small: 7, count: 42, weight: 0.5, plain: 2 } },
      children: {},
    });
    // a snapshot is a copy: changing the agent later does not change it
    ex.send(1, 'STIFLE');
    expect(snap.value.item).toBe('spreader');
    ex.restore(1, snap);
    expect(ex.stateNames(1)[ex.stateIndex(1, 1)]).toBe('spreader');
  });

  it('restores a snapshot into a fresh executor and continues identically', () => {
    const machine = MACHINES.gossip;
    const size = 25;
    const a = make(machine, size);
    const ops = randomOps(machine.spec, size, 1200, 'restore-fresh', false);
    for (const op of ops.slice(0, 600)) apply(a, a, op);
    const b = make(machine, size);
    for (let i = 0; i < size; i++) b.restore(i, JSON.parse(JSON.stringify(a.snapshot(i))));
    const keys = Object.keys(machine.spec.memory ?? {});
    expectSamePopulation(a, b);
    for (const op of ops.slice(600)) {
      expect(apply(b, b, op)).toBe(apply(a, a, op));
      expectSameAgent(a, b, op.i, keys);
    }
    expectSamePopulation(a, b);
  });

  it('beginStep and endStep leave every region but the lifecycle alone', () => {
    const ex = make(MACHINES.gossip, 4);
    const model = new ReferenceModel(MACHINES.gossip.spec, 4);
    ex.send(2, 'HEAR');
    model.send(2, 'HEAR');
    const hash = ex.stateHash();
    ex.beginStep(2);
    ex.endStep(2);
    expectPopulationMatchesModel(ex, model);
    expect(ex.stateHash()).toBe(hash);
  });

  // -0 === 0 but their bits differ: the state hash must not depend on a -0 written on the way
  // (back in its initial state, the population hashes as a fresh one).
  it('state hash of an f64 slot does not depend on writing -0 on the way', () => {
    const ex = make(MACHINES.gossip, 2);
    const k = ex.layout.slot('weight');
    const initial = ex.slot(1, k);
    ex.setSlot(1, k, 0);
    ex.setSlot(1, k, -0);
    ex.setSlot(1, k, initial);
    expect(ex.stateHash()).toBe(make(MACHINES.gossip, 2).stateHash());
  });

  // A snapshot stored as JSON holds 0 for -0: an agent restored from it (fork, resume) keeps
  // the digest of the original.
  it('digests an f64 slot holding -0 the same as after a JSON snapshot round trip', () => {
    const a = make(MACHINES.gossip, 2);
    a.setMemory(1, 'weight', -0);
    const b = make(MACHINES.gossip, 2);
    b.restore(1, JSON.parse(JSON.stringify(a.snapshot(1))));
    expect(canonicalJson(b.snapshot(1))).toBe(canonicalJson(a.snapshot(1)));
    expect(digestOf(b)).toBe(digestOf(a));
    expect(b.stateHash()).toBe(a.stateHash());
  });

  it('encounters: the responder answers at once, its changes land on it alone and follow the model', () => {
    const machine = MACHINES.gossip;
    const size = 12;
    const ex = make(machine, size);
    const model = new ReferenceModel(machine.spec, size);
    const bus = new MessageBus({ size });
    const streams = new RngStreams(3);
    const ctx = new StepContext({}, streams.stepRng('agent'), ex, bus, undefined, true);
    const answerCtx = new StepContext({}, streams.stepRng('encounter'), ex, bus, undefined, true);
    const broker = new EncounterBroker(
      bus,
      answerCtx,
      (c, said) => {
        const knew = !c.is('item', 'ignorant');
        if (!knew) c.emit('HEAR');
        c.set('count', Number(said.payload));
        c.reply(knew ? 'knew' : 'thanks');
      },
      'contract',
    );
    ctx.setBroker(broker);
    const order = new SeededStream('encounter-contract');
    bus.release(1);
    for (let k = 0; k < 60; k++) {
      const i = order.int(size);
      ctx.aim(i, 1, bus.take(i));
      const j = ctx.randomAgent();
      const knew = model.state(j, model.regions.indexOf('item')) !== 'ignorant';
      const answer = ctx.encounter(j, 'tell', 'item', k);
      expect(answer?.kind).toBe(knew ? 'knew' : 'thanks');
      expect(answer?.from).toBe(j);
      if (answer?.kind === 'knew') ctx.emit('STIFLE');
      ctx.close();
      if (!knew) model.send(j, 'HEAR');
      model.setMemory(j, 'count', k);
      if (knew) model.send(i, 'STIFLE');
      expectMatchesModel(ex, model, i);
      expectMatchesModel(ex, model, j);
    }
    expectPopulationMatchesModel(ex, model);
    expect(broker.delivered).toBe(120);
  });

  it('rejects snapshots that name unknown states', () => {
    const ex = make(MACHINES.gossip, 3);
    const snap = ex.snapshot(0);
    expect(() => ex.restore(0, { ...snap, value: { ...snap.value, item: 'nowhere' } })).toThrow(/nowhere/);
  });
}

/** Applies one op to `ex`; copies take the source snapshot from `source`. Returns send's result. */
export function apply(ex: AgentExecutor, source: AgentExecutor, op: Op): boolean | undefined {
  if (op.kind === 'send')
    return op.byId ? ex.sendId(op.i, ex.layout.event(op.event)) : ex.send(op.i, op.event);
  if (op.kind === 'memory') {
    if (op.bySlot) ex.setSlot(op.i, ex.layout.slot(op.key), op.value);
    else ex.setMemory(op.i, op.key, op.value);
  } else ex.restore(op.i, source.snapshot(op.from));
  return undefined;
}
