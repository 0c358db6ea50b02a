import type { StepContext } from '../../src/index.ts';
import { H, type ItemHandles, ROLE, ROLE_SLOT } from './machine.ts';
import type { RumorParams } from './params.ts';

type Ctx = StepContext<RumorParams>;
const [FACT, RUMOR] = H;

/** True for the classic pairwise models, where a teller learns that the other already knew. */
function pairwise(p: RumorParams): boolean {
  return p.model === 'daley-kendall' || p.model === 'maki-thompson';
}

/** Counts a telling and records the first one (who told, when): the provenance. */
function noteHeard(ctx: Ctx, x: ItemHandles, from: number): number {
  const heard = ctx.slot(x.heard) + 1;
  ctx.setSlot(x.heard, heard);
  if (ctx.slot(x.at) < 0) {
    ctx.setSlot(x.src, from);
    ctx.setSlot(x.at, ctx.tick);
  }
  return heard;
}

function adopts(ctx: Ctx, heard: number): boolean {
  const p = ctx.params;
  if (p.model === 'independent-cascade') return ctx.rng.chance(p.p);
  if (p.model === 'complex-contagion') return heard >= p.theta;
  return true;
}

/** Whether this agent refuses to pass the rumour on (debunkers then spread the fact). */
function rejectsRumor(ctx: Ctx): boolean {
  const role = ctx.slot(ROLE_SLOT);
  if (role === ROLE.debunker) {
    const s = ctx.stateOf(FACT.region);
    if (s === FACT.ignorant || s === FACT.aware) {
      noteHeard(ctx, FACT, ctx.agent);
      ctx.fire(FACT.hear);
    }
    return true;
  }
  const p = ctx.params;
  if (p.factBlocksRumor && ctx.stateOf(FACT.region) !== FACT.ignorant) return true;
  return role === ROLE.skeptic && ctx.rng.chance(p.skepticism);
}

function hear(ctx: Ctx, x: ItemHandles, from: number): void {
  const heard = noteHeard(ctx, x, from);
  const state = ctx.stateOf(x.region);
  if (state === x.ignorant || state === x.aware) {
    if (!adopts(ctx, heard)) {
      if (state === x.ignorant) ctx.fire(x.notice);
      return;
    }
    ctx.fire(x === RUMOR && rejectsRumor(ctx) ? x.know : x.hear);
    return;
  }
  if (!pairwise(ctx.params)) return;
  // The teller met someone who already knew: it stops (both models); in Daley-Kendall a
  // spreader who is told again stops too.
  if (from >= 0) ctx.tell(from, 'ack', x.name);
  if (ctx.params.model === 'daley-kendall' && state === x.spreader) ctx.fire(x.stifle);
}

function spread(ctx: Ctx, x: ItemHandles): void {
  if (pairwise(ctx.params)) {
    const j = ctx.randomNeighbour();
    if (j >= 0) ctx.tell(j, 'tell', x.name);
    return;
  }
  ctx.send({ to: 'neighbours' }, 'tell', x.name);
  ctx.fire(x.stifle);
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
    const x = m.item === 'fact' ? FACT : RUMOR;
    if (m.kind === 'tell') hear(ctx, x, m.from);
    else if (m.kind === 'ack' && ctx.in(x.region, x.spreader)) ctx.fire(x.stifle);
  }
  if (ctx.in(FACT.region, FACT.spreader)) spread(ctx, FACT);
  if (ctx.in(RUMOR.region, RUMOR.spreader)) spread(ctx, RUMOR);
}
