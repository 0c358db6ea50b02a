import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Decision, defineAgentMachine, type StepContext } from '../../src/agent/index.ts';
import type { TurnPolicyName } from '../../src/clock/index.ts';
import { ringLattice } from '../../src/network/index.ts';
import { defineWorld, runWorld } from '../../src/world/index.ts';
import { CaptureLog } from '../clock/capture-log.ts';

const N = 50;

const gossiper = defineAgentMachine({
  id: 'gossiper',
  regions: {
    item: {
      initial: 'ignorant',
      states: {
        ignorant: { on: { HEAR: 'spreader' } },
        spreader: { tags: ['active'], on: { STOP: 'done' } },
        done: {},
      },
    },
  },
  memory: { heard: { initial: 0, type: 'i32' }, luck: { initial: 0 }, first: { initial: -1, type: 'i32' } },
});

/**
 * A small world whose policy decides asynchronously: it reads everything it needs before its
 * first await, then (optionally) waits a random wall-clock delay, so decisions complete in a
 * scrambled order.
 */
function gossipWorld(delayed: boolean, completions: number[][]) {
  const params = z.object({
    turns: z.enum(['simultaneous', 'random-order', 'async']).default('simultaneous'),
  });
  return defineWorld({
    id: `async-gossip-${delayed ? 'delayed' : 'immediate'}`,
    version: '1.0.0',
    description: 'asynchronous gossip on a ring',
    params,
    create: ({ params: p }) => ({
      size: N,
      agents: gossiper,
      executor: 'columnar',
      network: ringLattice({ n: N, k: 4 }),
      turnPolicy: p.turns as TurnPolicyName,
      init: (control) => {
        control.emit(0, 'HEAR');
        control.emit(25, 'HEAR');
      },
      policy: (ctx: StepContext<unknown>): Promise<Decision> => {
        const agent = ctx.agent;
        const tick = ctx.tick;
        const heard = ctx.inbox.length;
        const first = heard > 0 ? ctx.inbox.get(0).from : -1;
        const spreading = ctx.is('item', 'spreader');
        const ignorant = ctx.is('item', 'ignorant');
        const luck = ctx.rng.next();
        const target = ctx.randomNeighbour();
        const decide = (): Decision => {
          completions.at(-1)?.push(agent);
          const events: string[] = [];
          const messages: Decision['messages'] = [];
          if (ignorant && heard > 0) events.push('HEAR');
          if (spreading) {
            messages.push({ address: { to: 'agent', id: target }, kind: 'tell', payload: { tick } });
            if (luck < 0.3) {
              messages.push({ address: { to: 'neighbours' }, kind: 'tell' });
              events.push('STOP');
            }
          }
          return {
            events,
            memory: { heard, luck, ...(first >= 0 ? { first } : {}) },
            messages,
          };
        };
        if (!delayed) return Promise.resolve().then(decide);
        return new Promise((resolve) => setTimeout(() => resolve(decide()), Math.random() * 4));
      },
      metrics: (view) => ({ spreaders: view.count('item', 'spreader'), done: view.count('item', 'done') }),
      stop: (view) =>
        view.tick > 0 && view.executor.activeCount() === 0 && view.pending() === 0 ? 'extinct' : null,
    }),
  });
}

async function runGossip(delayed: boolean, turns: string) {
  const completions: number[][] = [];
  const log = new CaptureLog();
  const result = await runWorld(gossipWorld(delayed, completions), {
    params: { turns },
    ticks: 25,
    level: 'full',
    openLog: () => log,
    onTick: () => completions.push([]),
    onStart: () => completions.push([]),
  });
  return { log, result, completions };
}

describe('asynchronous policies commit in agent order, not completion order', () => {
  it.each([['simultaneous'], ['random-order'], ['async']])(
    '%s: random completion delays give the same full log as no delays',
    async (turns) => {
      const immediate = await runGossip(false, turns);
      const delayed = await runGossip(true, turns);
      // the delays really did scramble completion order
      const scrambled = delayed.completions.filter(
        (c, k) => c.join(',') !== immediate.completions[k]?.join(','),
      ).length;
      expect(scrambled).toBeGreaterThan(2);
      expect(immediate.log.events('act').length).toBeGreaterThan(50);
      expect(immediate.log.events('send').length).toBeGreaterThan(10);
      expect(delayed.log.lines).toEqual(immediate.log.lines);
      expect({ ...delayed.result, world: '' }).toEqual({ ...immediate.result, world: '' });
    },
  );
});
