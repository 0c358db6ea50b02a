import type { StepContext } from '../../src/index.ts';
import { ITEMS, type Item, ROLE } from './machine.ts';
import type { RumorParams } from './params.ts';

const EVENTS = {
  fact: {
    hear: 'HEAR_FACT',
    know: 'KNOW_FACT',
    stifle: 'STIFLE_FACT',
    heard: 'heard_fact',
    src: 'src_fact',
    at: 'at_fact',
  },
  rumor: {
    hear: 'HEAR_RUMOR',
    know: 'KNOW_RUMOR',
    stifle: 'STIFLE_RUMOR',
    heard: 'heard_rumor',
    src: 'src_rumor',
    at: 'at_rumor',
  },
} as const;

type Ctx = StepContext<RumorParams>;

/** True for the classic pairwise models, where a teller learns that the other already knew. */
function pairwise(p: RumorParams): boolean {
  return p.model === 'daley-kendall' || p.model === 'maki-thompson';
}

/** Records the first telling of an item (provenance) and counts tellings. */
export function noteHeard(ctx: Ctx, item: Item, from: number): number {
  const e = EVENTS[item];
  const heard = ctx.num(e.heard) + 1;
  ctx.set(e.heard, heard);
  if (heard === 1) {
    ctx.set(e.src, from);
    ctx.set(e.at, ctx.tick);
  }
  return heard;
}

function adopts(ctx: Ctx, heard: number): boolean {
  const p = ctx.params;
  if (p.model === 'independent-cascade') return ctx.rng.chance(p.p);
  if (p.model === 'complex-contagion') return heard >= p.theta;
  return true;
}

/** Whether this agent refuses to pass the rumour on (and, for debunkers, starts spreading the fact). */
function rejectsRumor(ctx: Ctx): boolean {
  const p = ctx.params;
  const role = ctx.num('role');
  if (role === ROLE.debunker) {
    if (ctx.is('fact', 'ignorant')) {
      noteHeard(ctx, 'fact', ctx.agent);
      ctx.emit(EVENTS.fact.hear);
    }
    return true;
  }
  if (p.factBlocksRumor && !ctx.is('fact', 'ignorant')) return true;
  return role === ROLE.skeptic && ctx.rng.chance(p.skepticism);
}

function hear(ctx: Ctx, item: Item, from: number): void {
  const e = EVENTS[item];
  const heard = noteHeard(ctx, item, from);
  const state = ctx.state(item);
  if (state === 'ignorant') {
    if (!adopts(ctx, heard)) return;
    ctx.emit(item === 'rumor' && rejectsRumor(ctx) ? e.know : e.hear);
    return;
  }
  if (!pairwise(ctx.params)) return;
  // The teller meets someone who already knew: it stops (both models); in Daley-Kendall
  // a spreader who is told again stops too.
  if (from >= 0) ctx.send({ to: 'agent', id: from }, 'ack', item);
  if (ctx.params.model === 'daley-kendall' && state === 'spreader') ctx.emit(e.stifle);
}

function spread(ctx: Ctx, item: Item): void {
  if (pairwise(ctx.params)) {
    const j = ctx.randomNeighbour();
    if (j >= 0) ctx.send({ to: 'agent', id: j }, 'tell', item);
    return;
  }
  ctx.send({ to: 'neighbours' }, 'tell', item);
  ctx.emit(EVENTS[item].stifle);
}

/**
 * One step of a rumour-world agent: take in every telling and every "I already knew",
 * then, for each item it is spreading, tell one random neighbour (pairwise models) or all
 * neighbours once (cascade models).
 */
export function rumorPolicy(ctx: Ctx): void {
  const inbox = ctx.inbox;
  for (let k = 0; k < inbox.length; k++) {
    const m = inbox.get(k);
    const item = m.item as Item;
    if (m.kind === 'tell') hear(ctx, item, m.from);
    else if (m.kind === 'ack' && ctx.is(item, 'spreader')) ctx.emit(EVENTS[item].stifle);
  }
  for (const item of ITEMS) if (ctx.is(item, 'spreader')) spread(ctx, item);
}
