import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgentMachine } from '../../src/agent/index.ts';
import { AsyncActivationPolicy } from '../../src/clock/index.ts';
import { defineWorld, runWorld } from '../../src/world/index.ts';
import { CaptureLog } from '../clock/capture-log.ts';

const pinger = defineAgentMachine({
  id: 'pinger',
  regions: { mode: { initial: 'on', states: { on: {} } } },
  memory: { got: { initial: 0, type: 'i32' } },
});

/** Two agents that wake rarely: agent 0 pings agent 1 at each of its wakes. */
const sparse = defineWorld({
  id: 'sparse-async',
  version: '1.0.0',
  description: 'two rarely waking agents',
  params: z.object({}),
  create: () => ({
    size: 2,
    agents: pinger,
    executor: 'columnar',
    turnPolicy: new AsyncActivationPolicy(0.05),
    policy: (ctx) => {
      if (ctx.agent === 0) ctx.send({ to: 'agent', id: 1 }, 'ping');
      else if (ctx.inbox.length) ctx.set('got', ctx.num('got') + ctx.inbox.length);
    },
  }),
});

describe('sparse asynchronous activation (the clock skips ticks)', () => {
  // The clock jumps to ceil(next wake); a message due at a skipped tick must still be
  // released when the recipient next acts (it once was lost: this is its regression test).
  it('delivers every message to a recipient that acts after it is due', async () => {
    const log = new CaptureLog();
    await runWorld(sparse, { seed: 3, ticks: 600, level: 'full', openLog: () => log });
    const acts1 = log.events('act').filter((e) => e.agent === 1);
    const ticks = new Set(log.events('tick').map((e) => e.t));
    const sends = log.events('send');
    expect(sends.length).toBeGreaterThan(5);
    // the clock does skip ticks here
    expect(ticks.size).toBeLessThan(300);
    const lastAct1 = Math.max(...acts1.map((e) => e.t));
    const observed = new Set(log.events('observe').flatMap((e) => e.msgs as number[]));
    const due = sends.filter((e) => (e.deliverAt as number) <= lastAct1).map((e) => e.id as number);
    expect(due.length).toBeGreaterThan(3);
    expect(due.filter((id) => !observed.has(id))).toEqual([]);
  });
});
