import { describe, expect, it } from 'vitest';
import {
  AsyncActivationPolicy,
  type ClockEvent,
  createTurnPolicy,
  EventQueue,
  PRIORITY,
  TURN_POLICY_NAMES,
  type TurnContext,
  type TurnPolicy,
  type TurnPolicyName,
} from '../../src/clock/index.ts';
import { ConfigError, RngStreams, SeededStream } from '../../src/core/index.ts';

const ascending = (s: Set<number>): number[] => [...s].sort((a, b) => a - b);

/** A fake world: who has mail and who is due at each tick comes from seeded random sets. */
class FakeWorld implements TurnContext {
  readonly rng;
  inboxSet = new Set<number>();
  dueSet = new Set<number>();
  private readonly sets: SeededStream;

  constructor(
    readonly size: number,
    seed = 1,
    setsSeed = 'sets',
  ) {
    this.rng = new RngStreams(seed).stepRng('turns');
    this.sets = new SeededStream(setsSeed);
  }

  /** Draws this tick's inbox set and due set (due = inbox plus some active agents). */
  nextTick(): void {
    this.inboxSet = new Set();
    this.dueSet = new Set();
    for (let i = 0; i < this.size; i++) {
      if (this.sets.chance(0.4)) this.inboxSet.add(i);
      if (this.inboxSet.has(i) || this.sets.chance(0.3)) this.dueSet.add(i);
    }
  }

  hasInbox(i: number): boolean {
    return this.inboxSet.has(i);
  }

  isDue(i: number): boolean {
    return this.dueSet.has(i);
  }

  due(): number[] {
    return ascending(this.dueSet);
  }

  withInbox(): number[] {
    return ascending(this.inboxSet);
  }
}

interface TickRecord {
  tick: number;
  popped: ClockEvent[];
  turns: number[];
  inbox: number[];
  due: number[];
}

/**
 * Independent oracle of the async schedule: agent a's n-th wake (n from 0) is at the sum of
 * its first n + 1 seeded exponential waits, drawn from rng.at(a, k). `step` maps the agents
 * stepped in one tick to the times of their next activations.
 */
class WakeTimes {
  private readonly times = new Map<number, number[]>();
  private readonly done = new Map<number, number>();

  constructor(
    private readonly world: FakeWorld,
    private readonly rate: number,
  ) {}

  of(agent: number, n: number): number {
    const list = this.times.get(agent) ?? [];
    this.times.set(agent, list);
    while (list.length <= n) {
      const from = list.length ? list[list.length - 1] : 0;
      list.push(from + this.world.rng.at(agent, list.length).exponential(this.rate));
    }
    return list[n];
  }

  count(agent: number): number {
    return this.done.get(agent) ?? 0;
  }

  step(agents: readonly number[]): number[] {
    return agents.map((a) => {
      const n = this.count(a);
      this.done.set(a, n + 1);
      return this.of(a, n);
    });
  }
}

function order(a: ClockEvent, b: ClockEvent): number {
  return a.time - b.time || a.priority - b.priority || a.seq - b.seq;
}

/** Drives a policy the way the runner does: peek, tick = max(tick + 1, ceil(time)), popUntil(tick). */
function drive(policy: TurnPolicy, world: FakeWorld, maxTicks: number): TickRecord[] {
  const queue = new EventQueue();
  policy.start(queue, world);
  const out: TickRecord[] = [];
  let tick = 0;
  for (let next = queue.peek(); next; next = queue.peek()) {
    const t = Math.max(tick + 1, Math.ceil(next.time));
    if (t > maxTicks) break;
    tick = t;
    const popped = queue.popUntil(tick);
    world.nextTick();
    const turns = Array.from(policy.turns(tick, popped, queue, world));
    out.push({ tick, popped, turns, inbox: ascending(world.inboxSet), due: ascending(world.dueSet) });
  }
  return out;
}

describe('turn policies, driven like the runner over a real EventQueue', () => {
  it.each(TURN_POLICY_NAMES.map((n) => [n]))('%s: pops events in (time, priority, seq) order', (name) => {
    const records = drive(createTurnPolicy(name), new FakeWorld(12), 40);
    expect(records.length).toBeGreaterThan(10);
    let prevTick = 0;
    for (const r of records) {
      expect(r.popped).toEqual([...r.popped].sort(order));
      expect(r.tick).toBeGreaterThan(prevTick);
      for (const e of r.popped) expect(e.time).toBeLessThanOrEqual(r.tick);
      prevTick = r.tick;
    }
  });

  it('simultaneous: steps exactly the due agents, ascending, every tick', () => {
    const records = drive(createTurnPolicy('simultaneous'), new FakeWorld(15), 30);
    expect(records.map((r) => r.tick)).toEqual(Array.from({ length: 30 }, (_, k) => k + 1));
    for (const r of records) {
      expect(r.popped.map((e) => [e.kind, e.time, e.priority])).toEqual([['tick', r.tick, PRIORITY.tick]]);
      expect(r.turns).toEqual(r.due);
    }
  });

  it('round-robin: steps agent (tick - 1) mod N, whoever is due', () => {
    const records = drive(createTurnPolicy('round-robin'), new FakeWorld(7), 30);
    expect(records.map((r) => r.turns)).toEqual(records.map((r) => [(r.tick - 1) % 7]));
    expect(records.length).toBe(30);
  });

  it('random-order: steps a permutation of the due agents', () => {
    const records = drive(createTurnPolicy('random-order'), new FakeWorld(20), 30);
    expect(records.length).toBe(30);
    let shuffled = 0;
    for (const r of records) {
      expect([...r.turns].sort((a, b) => a - b)).toEqual(r.due);
      if (r.turns.some((a, k) => a !== r.due[k])) shuffled++;
    }
    expect(shuffled).toBeGreaterThan(25);
  });

  it('random-order: the same seed gives the same orders; other ticks and seeds give others', () => {
    const a = drive(createTurnPolicy('random-order'), new FakeWorld(20, 1), 20);
    const b = drive(createTurnPolicy('random-order'), new FakeWorld(20, 1), 20);
    const c = drive(createTurnPolicy('random-order'), new FakeWorld(20, 2), 20);
    expect(b.map((r) => r.turns)).toEqual(a.map((r) => r.turns));
    expect(c.map((r) => r.due)).toEqual(a.map((r) => r.due));
    expect(c.map((r) => r.turns)).not.toEqual(a.map((r) => r.turns));
    // everyone due every tick: the order still changes from tick to tick
    const world = new FakeWorld(10);
    world.nextTick = () => {
      world.dueSet = new Set(Array.from({ length: 10 }, (_, i) => i));
    };
    const full = drive(createTurnPolicy('random-order'), world, 20);
    expect(new Set(full.map((r) => r.turns.join(','))).size).toBeGreaterThanOrEqual(19);
  });

  it('wake-on-message: due agents at tick 1, then only agents with mail', () => {
    const records = drive(createTurnPolicy('wake-on-message'), new FakeWorld(25), 20);
    expect(records[0].tick).toBe(1);
    expect(records[0].turns).toEqual(records[0].due);
    expect(records[0].due.length).toBeGreaterThan(records[0].inbox.length);
    for (const r of records.slice(1)) {
      expect(r.turns).toEqual(r.inbox);
      expect(r.due.length).toBeGreaterThan(r.inbox.length);
    }
  });

  it('async: every agent wakes, and wakes within a tick are stepped in wake-time order', () => {
    const world = new FakeWorld(30);
    const records = drive(createTurnPolicy('async'), world, 20);
    const times = new WakeTimes(world, 1);
    const woke = new Set<number>();
    for (const r of records) {
      for (const e of r.popped) if (e.kind === 'wake') expect(e.time).toBe(times.of(e.agent, e.n));
      const stepped = times.step(r.turns);
      expect(stepped).toEqual([...stepped].sort((a, b) => a - b));
      for (const a of r.turns) woke.add(a);
    }
    expect(woke.size).toBe(30);
  });

  it('async: the schedule depends on the seed only, not on inboxes', () => {
    const a = drive(createTurnPolicy('async'), new FakeWorld(30, 4, 'x'), 20);
    const b = drive(createTurnPolicy('async'), new FakeWorld(30, 4, 'y'), 20);
    const c = drive(createTurnPolicy('async'), new FakeWorld(30, 5, 'x'), 20);
    expect(b.map((r) => r.turns)).toEqual(a.map((r) => r.turns));
    expect(c.map((r) => r.turns)).not.toEqual(a.map((r) => r.turns));
  });

  // A wake rescheduled into the tick being processed (e.time + wait <= tick) is stepped in that
  // tick: an agent may wake several times a tick, so the mean wake rate is not capped at 1.
  it.each([0.5, 1, 2])('async: mean wakes per agent per tick ≈ rate (rate %s)', (rate) => {
    const N = 200;
    const T = 300;
    const records = drive(new AsyncActivationPolicy(rate), new FakeWorld(N), T);
    const wakes = records.reduce((s, r) => s + r.turns.length, 0);
    expect(Math.abs(wakes / N / T - rate) / rate).toBeLessThan(0.03);
  });

  it.each([0.5, 1, 2])('async: a wake is stepped in the tick that contains its time (rate %s)', (rate) => {
    const world = new FakeWorld(100);
    const records = drive(new AsyncActivationPolicy(rate), world, 100);
    const times = new WakeTimes(world, rate);
    let late = 0;
    let missed = 0;
    for (const r of records) {
      for (const t of times.step(r.turns)) if (!(t > r.tick - 1 && t <= r.tick)) late++;
      // every wake due by this tick has been stepped
      for (let a = 0; a < 100; a++) if (times.of(a, times.count(a)) <= r.tick) missed++;
    }
    expect(records.length).toBe(100);
    expect({ late, missed }).toEqual({ late: 0, missed: 0 });
  });

  it('rejects bad policy names and async rates', () => {
    expect(() => createTurnPolicy('sometimes' as TurnPolicyName)).toThrow(ConfigError);
    for (const rate of [0, -1, Number.NaN])
      expect(() => createTurnPolicy('async', { rate })).toThrow(ConfigError);
    for (const name of TURN_POLICY_NAMES) expect(createTurnPolicy(name).name).toBe(name);
    expect((createTurnPolicy('async', { rate: 3 }) as AsyncActivationPolicy).rate).toBe(3);
  });
});
