// A world's activation (docs/TIME.md): rates read from its declaration, checked against its
// machine; both executors step the same agents; an asynchronous decision is committed before
// the next wake; and the turn-policy registry, to which a world may add its own policy.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ColumnarExecutor,
  type Decision,
  defineAgentMachine,
  XStateExecutor,
} from '../../src/agent/index.ts';
import { type EventQueue, PRIORITY, TURN_POLICY_NAMES, TurnPolicyRegistry } from '../../src/clock/index.ts';
import { ConfigError } from '../../src/core/index.ts';
import { ringLattice } from '../../src/network/index.ts';
import {
  activationProblems,
  declaredRates,
  defineWorld,
  runWorld,
  type WorldDefinition,
  WorldView,
  worldInstanceProblems,
} from '../../src/world/index.ts';
import { world as epidemic } from '../../worlds/epidemic/index.ts';
import { CaptureLog } from '../clock/capture-log.ts';

const machine = defineAgentMachine({
  id: 'two-items',
  regions: {
    a: {
      initial: 'off',
      states: { off: { on: { A: 'on' } }, on: { tags: ['active'], on: { A_OFF: 'off' } } },
    },
    b: { initial: 'off', states: { off: { on: { B: 'on' } }, on: { on: { B_OFF: 'off' } } } },
  },
});

describe('declaredRates', () => {
  const executor = new ColumnarExecutor(machine, 3);
  const view = new WorldView(3, executor, undefined as never, undefined);
  executor.send(1, 'A');
  executor.send(2, 'A');
  executor.send(2, 'B');

  it('by state: the largest rate of an agent’s regions, 0 for states not named', () => {
    const rate = declaredRates({ rates: { a: { on: 2 }, b: { on: 5 } } }, executor, machine, view);
    expect([rate(0), rate(1), rate(2)]).toEqual([0, 2, 5]);
  });

  it('without rates: 1 for states tagged active, 0 for the others', () => {
    const rate = declaredRates({}, executor, machine, view);
    expect([rate(0), rate(1), rate(2)]).toEqual([0, 1, 1]);
  });

  it('a rate function replaces the table', () => {
    const rate = declaredRates({ rate: (i) => i / 10, rates: { a: { on: 9 } } }, executor, machine, view);
    expect(rate(2)).toBe(0.2);
  });

  it('names an unknown region, an unknown state and a bad rate', () => {
    expect(activationProblems({ rates: { c: { on: 1 } } }, machine)).toEqual([
      '`activation.rates` names region "c", not one of a, b',
    ]);
    expect(activationProblems({ rates: { a: { of: 1 } } }, machine)[0]).toContain('names state "of"');
    expect(activationProblems({ rates: { a: { on: -1 } } }, machine)[0]).toContain('finite number ≥ 0');
    expect(activationProblems({ rate: 3 }, machine)).toEqual([
      '`activation.rate` must be a function (agent, view) => rate',
    ]);
    expect(() => declaredRates({ rates: { a: { on: Number.NaN } } }, executor, machine, view)).toThrow(
      ConfigError,
    );
    const instance = {
      size: 3,
      agents: machine,
      policy: () => {},
      turnPolicy: 'async',
      activation: { rates: { z: {} } },
    };
    expect(worldInstanceProblems(instance)).toEqual(['`activation.rates` names region "z", not one of a, b']);
  });
});

describe('both executors under activation by state', () => {
  it('step the same agents and reach the same state hashes', async () => {
    const logs: CaptureLog[] = [];
    for (const executor of ['columnar', 'xstate']) {
      const log = new CaptureLog();
      const r = await runWorld(epidemic as unknown as WorldDefinition, {
        params: { n: 300, network: 'erdos-renyi', k: 6, initial: 3, executor },
        seed: 5,
        level: 'full',
        openLog: () => log,
      });
      expect(r.steps).toBeGreaterThan(100);
      logs.push(log);
    }
    const strip = (log: CaptureLog) => log.events().filter((e) => e.type !== 'snapshot');
    expect(strip(logs[1])).toEqual(strip(logs[0]));
  });

  it('the executors are the ones asked for', () => {
    expect(new ColumnarExecutor(machine, 1).kind).toBe('columnar');
    expect(new XStateExecutor(machine, 1).kind).toBe('xstate');
  });
});

const relay = defineAgentMachine({
  id: 'relay',
  regions: {
    r: {
      initial: 'idle',
      states: { idle: { on: { GO: 'on' } }, on: { tags: ['active'], on: { DONE: 'done' } }, done: {} },
    },
  },
});

/** A chain: each agent that is `on` wakes the next through an encounter and stops; sync or async decisions. */
function relayWorld(): WorldDefinition {
  return defineWorld({
    id: 'relay',
    version: '1.0.0',
    description: 'a chain of wakes',
    params: z.object({ async: z.boolean().default(false), n: z.number().default(40) }),
    create: ({ params: p }) => ({
      size: p.n,
      agents: relay,
      executor: 'columnar',
      network: ringLattice({ n: p.n, k: 2 }),
      turnPolicy: 'async',
      activation: { rates: { r: { on: 3 } } },
      init: (c) => c.emit(0, 'GO'),
      policy: (ctx): undefined | Promise<Decision> => {
        if (!ctx.is('r', 'on')) throw new Error(`agent ${ctx.agent} stepped while ${ctx.state('r')}`);
        if (ctx.agent + 1 < p.n) ctx.encounter(ctx.agent + 1, 'go');
        if (!p.async) {
          ctx.emit('DONE');
          return;
        }
        return Promise.resolve({ events: ['DONE'] });
      },
      respond: (ctx) => {
        if (ctx.is('r', 'idle')) ctx.emit('GO');
      },
      metrics: (view) => ({ done: view.count('r', 'done') }),
    }),
  }) as unknown as WorldDefinition;
}

describe('the event-driven schedule in the engine', () => {
  it('steps each agent of a relay once, after the encounter that woke it; async decisions alike', async () => {
    const ticks: unknown[][] = [];
    for (const async of [false, true]) {
      const log = new CaptureLog();
      const r = await runWorld(relayWorld(), {
        params: { async },
        seed: 2,
        ticks: 200,
        level: 'full',
        openLog: () => log,
      });
      // every agent stepped exactly once, in chain order: no passive or finished agent stepped
      expect(log.events('act').map((e) => e.agent)).toEqual(Array.from({ length: 40 }, (_, i) => i));
      expect(r.steps).toBe(40);
      expect(r.metrics.done).toBe(40);
      ticks.push(log.events('tick').map((e) => [e.t, e.state, e.stepped]));
    }
    expect(ticks[1]).toEqual(ticks[0]);
  });
});

/**
 * Agent 0 is on and, at each wake, opens an encounter with agent 1: "noop" until tick 3, then
 * "go", which turns agent 1 on once (every other answer writes nothing; `noops` counts them).
 * The rate function counts how often it is asked about each agent.
 */
function askedWorld(asked: number[], noops: { n: number }): WorldDefinition {
  const R = relay.layout.region('r');
  const ON = relay.layout.state(R, 'on');
  return defineWorld({
    id: 'asked',
    version: '1.0.0',
    description: 'who is asked for a rate',
    params: z.object({ executor: z.enum(['columnar', 'xstate']).default('columnar') }),
    create: ({ params: p }) => ({
      size: 2,
      agents: relay,
      executor: p.executor,
      turnPolicy: 'async',
      activation: {
        rate: (i, view) => {
          asked[i]++;
          return view.executor.stateIndex(i, R) === ON ? 1 : 0;
        },
      },
      init: (c) => c.emit(0, 'GO'),
      policy: (ctx) => {
        if (ctx.agent !== 0) return;
        ctx.encounter(1, ctx.tick >= 3 ? 'go' : 'noop');
      },
      respond: (ctx, said) => {
        if (said.kind === 'go' && ctx.is('r', 'idle')) ctx.emit('GO');
        else noops.n++; // an answer that writes nothing
      },
      metrics: (view) => ({ on: view.count('r', 'on') }),
    }),
  }) as unknown as WorldDefinition;
}

describe('an encounter reschedules its responder', () => {
  it('only when the answer changed it (columnar), after every answer (XState), with the same run', async () => {
    const runs = [];
    for (const executor of ['columnar', 'xstate'] as const) {
      const asked = [0, 0];
      const noops = { n: 0 };
      const log = new CaptureLog();
      const r = await runWorld(askedWorld(asked, noops), {
        params: { executor },
        seed: 4,
        ticks: 6,
        openLog: () => log,
      });
      runs.push({
        asked,
        noops: noops.n,
        on: r.metrics.on,
        ticks: log.events('tick').map((e) => [e.t, e.state, e.stepped]),
      });
    }
    const [columnar, xstate] = runs;
    expect(columnar.noops).toBeGreaterThan(0);
    expect(xstate.ticks).toEqual(columnar.ticks);
    expect(xstate.noops).toBe(columnar.noops);
    // XState cannot see every write: it asks again after each of the answers that wrote nothing
    expect(xstate.asked[1] - columnar.asked[1]).toBe(columnar.noops);
    // the "go" answer changed agent 1: it was asked again, and both agents end on
    expect(columnar.on).toBe(2);
    expect(xstate.on).toBe(2);
  });
});

/**
 * A fuse on a ring: agent i (> 0) burns, at rate 3, once its left neighbour i − 1 has burnt;
 * agent 0 burns at once. An agent's rate reads its neighbour, and no encounter or message
 * passes: only `activation.neighbours` tells the engine to ask again.
 */
function fuseWorld(): WorldDefinition {
  const R = relay.layout.region('r');
  const IDLE = relay.layout.state(R, 'idle');
  const DONE = relay.layout.state(R, 'done');
  return defineWorld({
    id: 'fuse',
    version: '1.0.0',
    description: 'a fuse of neighbour rates',
    params: z.object({ neighbours: z.boolean().default(true) }),
    create: ({ params: p }) => ({
      size: 40,
      agents: relay,
      executor: 'columnar',
      network: ringLattice({ n: 40, k: 2 }),
      turnPolicy: 'async',
      activation: {
        rate: (i, view) => {
          const ex = view.executor;
          if (ex.stateIndex(i, R) !== IDLE) return 0;
          return i === 0 || ex.stateIndex(i - 1, R) === DONE ? 3 : 0;
        },
        neighbours: p.neighbours,
      },
      policy: (ctx) => {
        ctx.emit('GO');
        ctx.emit('DONE');
      },
      metrics: (view) => ({ done: view.count('r', 'done') }),
    }),
  }) as unknown as WorldDefinition;
}

describe('activation.neighbours: a changed agent’s neighbours are asked again', () => {
  it('burns the whole fuse with it, and stops after the first agent without it', async () => {
    const run = (neighbours: boolean) =>
      runWorld(fuseWorld(), { params: { neighbours }, seed: 3, ticks: 200 });
    const told = await run(true);
    expect(told.metrics.done).toBe(40);
    expect(told.steps).toBe(40);
    // without it agent 1's rate stays the 0 it had before agent 0 burnt
    const stale = await run(false);
    expect(stale.metrics.done).toBe(1);
    expect(stale.steps).toBe(1);
  });

  it('needs a rate function and a boolean', () => {
    expect(activationProblems({ neighbours: true }, machine)).toEqual([
      '`activation.neighbours` needs `activation.rate`: only a rate function can read neighbours',
    ]);
    expect(activationProblems({ rate: () => 1, neighbours: 'yes' }, machine)).toEqual([
      '`activation.neighbours` must be true or false',
    ]);
  });
});

describe('an intervention reschedules by the new rates', () => {
  it('a recovery rate raised at tick 5 ends the epidemic sooner, from that tick on', async () => {
    const params = { n: 2000, initial: 20, contactRate: 0.5, beta: 0.6, gamma: 0.2 };
    const run = (fast: boolean) =>
      runWorld(epidemic as unknown as WorldDefinition, {
        params,
        seed: 4,
        ticks: 10_000,
        interventionsAt: (t) => (fast && t === 5 ? [{ type: 'params', set: { gamma: 3 } }] : []),
      });
    const slow = await run(false);
    const fast = await run(true);
    expect(slow.ticks).toBeGreaterThan(40);
    // γ = 3 against c·β = 0.3: every infected agent recovers within a few ticks of the change
    expect(fast.ticks).toBeLessThan(25);
    expect(fast.ticks).toBeGreaterThan(5);
  });
});

describe('the turn-policy registry', () => {
  const dyad = {
    summary: 'agents 0 and 1 take turns',
    create: () => ({
      name: 'dyad',
      start: (queue: EventQueue) => {
        queue.push(1, 'tick', -1, PRIORITY.tick);
      },
      turns: (tick: number, _popped: unknown, queue: EventQueue) => {
        queue.push(tick + 1, 'tick', -1, PRIORITY.tick);
        return [(tick - 1) % 2];
      },
    }),
  };

  it('lists the built-in policies and a world’s own, and makes them by name', () => {
    const registry = new TurnPolicyRegistry({ dyad });
    expect(registry.names()).toEqual([...TURN_POLICY_NAMES, 'dyad']);
    expect(registry.create('dyad').name).toBe('dyad');
    expect(registry.create('async', { byState: true }).name).toBe('async');
    expect(() => registry.create('nope')).toThrow(/unknown turn policy "nope".*/);
    expect(() => new TurnPolicyRegistry({ async: dyad })).toThrow(/reuses a built-in name/);
  });

  it('runs a world that names its own policy, and checks the name', async () => {
    const def = defineWorld({
      id: 'turns',
      version: '1.0.0',
      description: 'two agents taking turns',
      params: z.object({}),
      turnPolicies: { dyad },
      create: () => ({ size: 2, agents: relay, turnPolicy: 'dyad', policy: () => {} }),
    }) as unknown as WorldDefinition;
    const r = await runWorld(def, { ticks: 6 });
    expect(r.steps).toBe(6);
    const instance = { size: 2, agents: relay, policy: () => {}, turnPolicy: 'dyadic' };
    expect(worldInstanceProblems(instance, def)[0]).toContain('"dyadic" is not one of simultaneous');
    expect(worldInstanceProblems(instance, def)[0]).toContain('dyad');
    expect(worldInstanceProblems({ ...instance, turnPolicy: 'dyad' }, def)).toEqual([]);
  });
});
