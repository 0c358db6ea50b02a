import { defineAgentMachine } from '../../src/index.ts';

/**
 * Every opinion agent has one state, `updating`, tagged `active` so that it steps every tick
 * even when its inbox is empty. Memory: its opinion `x`, its initial opinion `u`, its
 * susceptibility `lambda` (Friedkin–Johnsen) and `dx`, how far its opinion moved in its last
 * step (the stop rule reads it).
 */
export const opinionAgent = defineAgentMachine({
  id: 'opinion-agent',
  regions: { opinion: { initial: 'updating', states: { updating: { tags: ['active'] } } } },
  memory: {
    x: { initial: 0, type: 'f64' },
    u: { initial: 0, type: 'f64' },
    lambda: { initial: 1, type: 'f64' },
    dx: { initial: 0, type: 'f64' },
  },
});

const L = opinionAgent.layout;
/** Layout numbers of the memory slots. */
export const SLOT = { x: L.slot('x'), u: L.slot('u'), lambda: L.slot('lambda'), dx: L.slot('dx') } as const;
/** Kind of the message that carries an opinion. */
export const OPINION_KIND = 'opinion';
