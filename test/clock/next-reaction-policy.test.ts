import { describe, expect, it } from 'vitest';
import {
  AsyncActivationPolicy,
  EventQueue,
  NextReactionPolicy,
  type TurnContext,
} from '../../src/clock/index.ts';
import { type Json, LogFormatError, RngStreams } from '../../src/core/index.ts';

/** A world whose rates and mail the test sets by hand. */
class Ctx implements TurnContext {
  readonly rng = new RngStreams(7).stepRng('turns');
  readonly rates: Float64Array;
  readonly mail = new Set<number>();
  readonly stateRate?: (i: number) => number;
  constructor(
    readonly size: number,
    declared = true,
  ) {
    this.rates = new Float64Array(size);
    if (declared) this.stateRate = (i) => this.rates[i];
  }
  hasInbox(i: number): boolean {
    return this.mail.has(i);
  }
  isDue(): boolean {
    return false;
  }
  due(): number[] {
    return [];
  }
  withInbox(): number[] {
    return [...this.mail].sort((a, b) => a - b);
  }
}

/** Steps ticks 1..ticks the way the engine does: each agent handed out, then told it may have changed. */
function drive(policy: NextReactionPolicy, from: number, ticks: number, step?: (i: number) => void) {
  const out: [number, number][] = [];
  for (let tick = from + 1; tick <= ticks; tick++) {
    policy.advance(tick - 1);
    for (let i = policy.nextTurn(tick); i >= 0; i = policy.nextTurn(tick)) {
      out.push([tick, i]);
      step?.(i);
      policy.changed(i);
    }
  }
  return out;
}

/** Each agent's wake time (0 for none), from the policy's snapshot. */
function wakeTimes(policy: NextReactionPolicy, size = 40): Float64Array {
  const state = policy.exportState() as { agents: string; wake: string };
  const agents = new Int32Array(new Uint8Array(Buffer.from(state.agents, 'base64')).buffer);
  const wake = new Float64Array(new Uint8Array(Buffer.from(state.wake, 'base64')).buffer);
  const out = new Float64Array(size);
  agents.forEach((a, k) => {
    out[a] = wake[k];
  });
  return out;
}

describe('NextReactionPolicy', () => {
  it('with no declared rates, wakes every agent on the rate-1 policy’s exact schedule', () => {
    const size = 40;
    const ctx = new Ctx(size, false);
    const policy = new NextReactionPolicy(1);
    policy.start(new EventQueue(), ctx);
    const got = drive(policy, 0, 25);
    const old = new AsyncActivationPolicy(1);
    const queue = new EventQueue();
    old.start(queue, ctx);
    const want: [number, number][] = [];
    for (let tick = 1; tick <= 25; tick++)
      for (const i of old.turns(tick, queue.popUntil(tick), queue, ctx)) want.push([tick, i]);
    expect(got.length).toBeGreaterThan(size * 20);
    expect(got).toEqual(want);
  });

  it('never hands out a passive agent; one made active wakes after a draw from its own count', () => {
    const ctx = new Ctx(10);
    const policy = new NextReactionPolicy(1);
    policy.start(new EventQueue(), ctx);
    expect(policy.scheduled).toBe(0);
    expect(drive(policy, 0, 3)).toEqual([]);
    policy.advance(2.5);
    ctx.rates[7] = 2;
    policy.changed(7);
    expect(wakeTimes(policy)[7]).toBe(2.5 + new RngStreams(7).stepRng('turns').at(7, 0).exponential(2));
    const woken = drive(policy, 3, 40, (i) => {
      if (i === 7) ctx.rates[7] = 0; // its step makes it passive
    });
    expect(woken).toHaveLength(1);
    expect(woken[0][1]).toBe(7);
    expect(policy.scheduled).toBe(0);
  });

  it('moves a wake by the ratio of the rates when a positive rate changes (no new draw)', () => {
    const ctx = new Ctx(3);
    ctx.rates[1] = 1;
    const policy = new NextReactionPolicy(1);
    policy.start(new EventQueue(), ctx);
    const w = wakeTimes(policy)[1];
    const now = w / 3;
    policy.advance(now);
    ctx.rates[1] = 4;
    policy.changed(1);
    expect(wakeTimes(policy)[1]).toBeCloseTo(now + (w - now) / 4, 12);
    ctx.rates[1] = 4;
    policy.changed(1); // the same rate: the wake stays
    expect(wakeTimes(policy)[1]).toBeCloseTo(now + (w - now) / 4, 12);
  });

  it('wakes a passive agent that has mail at the policy rate, once', () => {
    const ctx = new Ctx(5);
    const policy = new NextReactionPolicy(2);
    policy.start(new EventQueue(), ctx);
    ctx.mail.add(3);
    policy.advance(4);
    policy.changed(3);
    expect(wakeTimes(policy)[3]).toBe(4 + new RngStreams(7).stepRng('turns').at(3, 0).exponential(2));
    const woken = drive(policy, 4, 60, (i) => ctx.mail.delete(i));
    expect(woken.map(([, i]) => i)).toEqual([3]);
  });

  it('restored from its snapshot, continues exactly as the original', () => {
    const size = 30;
    const make = () => {
      const ctx = new Ctx(size);
      for (let i = 0; i < size; i += 3) ctx.rates[i] = 0.5 + (i % 5);
      return ctx;
    };
    // each step toggles a neighbour's rate: the future depends on every reschedule
    const stepper = (ctx: Ctx) => (i: number) => {
      const j = (i * 7 + 1) % size;
      ctx.rates[j] = ctx.rates[j] > 0 ? 0 : 1 + (j % 3);
    };
    const ctxA = make();
    const a = new NextReactionPolicy(1);
    a.start(new EventQueue(), ctxA);
    const steppingA = stepper(ctxA);
    // a neighbour's change reaches the policy as the engine reports it: changed(j) after the step
    const withNeighbour = (p: NextReactionPolicy, step: (i: number) => void) => (i: number) => {
      step(i);
      p.changed((i * 7 + 1) % size);
    };
    drive(a, 0, 6, withNeighbour(a, steppingA));
    const saved = JSON.parse(JSON.stringify(a.exportState())) as Json;
    const ctxB = make();
    ctxB.rates.set(ctxA.rates);
    const b = new NextReactionPolicy(1);
    b.importState(saved, 6, ctxB);
    const restAfterA = drive(a, 6, 30, withNeighbour(a, steppingA));
    const restAfterB = drive(b, 6, 30, withNeighbour(b, stepper(ctxB)));
    expect(restAfterA.length).toBeGreaterThan(50);
    expect(restAfterB).toEqual(restAfterA);
  });

  it('refuses a schedule that does not fit, naming what is wrong', () => {
    const ctx = new Ctx(4);
    const policy = new NextReactionPolicy(1);
    expect(() => policy.importState({ kind: 'other' } as Json, 0, ctx)).toThrow(LogFormatError);
    const f64 = (xs: number[]) => Buffer.from(new Float64Array(xs).buffer).toString('base64');
    const i32 = (xs: number[]) => Buffer.from(new Int32Array(xs).buffer).toString('base64');
    const state = (agents: number[], wake: number[], rate: number[], draws = [0, 1, 0, 0]) =>
      ({
        kind: 'next-reaction',
        agents: i32(agents),
        wake: f64(wake),
        rate: f64(rate),
        draws: i32(draws),
      }) as Json;
    expect(() => policy.importState(state([1], [1], [-1]), 0, ctx)).toThrow(/agent 1 has rate -1/);
    expect(() => policy.importState(state([1], [1], [1]), 3, ctx)).toThrow(/before tick 3/);
    expect(() => policy.importState(state([2, 1], [1, 1], [1, 1]), 0, ctx)).toThrow(/out of order/);
    expect(() => policy.importState(state([9], [1], [1]), 0, ctx)).toThrow(/out of order or range/);
    expect(() => policy.importState(state([1], [1, 2], [1]), 0, ctx)).toThrow(/1 agents, 2 wake times/);
    expect(() => policy.importState(state([1], [1], [1], [0]), 0, ctx)).toThrow(/schedule of 4 agents/);
    expect(() => policy.importState(state([1], [1], [1], [0, -2, 0, 0]), 0, ctx)).toThrow(/-2 draws/);
    policy.importState(state([1, 3], [1.5, 2], [1, 2]), 1, ctx);
    expect(policy.scheduled).toBe(2);
  });

  it('refuses a negative or infinite declared rate with the agent named', () => {
    const ctx = new Ctx(3);
    ctx.rates[2] = Number.NaN;
    expect(() => new NextReactionPolicy(1).start(new EventQueue(), ctx)).toThrow(
      /wake rate of agent 2 is NaN/,
    );
  });
});
