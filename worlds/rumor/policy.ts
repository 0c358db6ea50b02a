import type { Message, StepContext } from '../../src/index.ts';
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

function adopts(ctx: Ctx, heard: number, phi: Float64Array | null): boolean {
  const p = ctx.params;
  if (p.model === 'independent-cascade') return ctx.rng.chance(p.p);
  if (p.model === 'complex-contagion') return heard >= p.theta;
  // Watts (2002): the fraction of neighbours that adopted reaches this agent's threshold
  if (p.model === 'watts-threshold') return heard / ctx.degree() >= phi![ctx.agent];
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

/** Takes in one telling; returns true if this agent already knew the item. */
function hearTelling(ctx: Ctx, x: ItemHandles, from: number, phi: Float64Array | null): boolean {
  const heard = noteHeard(ctx, x, from);
  const state = ctx.stateOf(x.region);
  if (state !== x.ignorant && state !== x.aware) return true;
  if (!adopts(ctx, heard, phi)) {
    if (state === x.ignorant) ctx.fire(x.notice);
    return false;
  }
  // both events read before the choice: a property read first reached late in a run (the
  // first agent who refuses) would make V8 throw away the policy's optimised code
  const { hear, know } = x;
  ctx.fire(x === RUMOR && rejectsRumor(ctx) ? know : hear);
  return false;
}

/** A delayed telling (1-tick message): an agent who already knew answers with an "ack" message. */
function hear(ctx: Ctx, x: ItemHandles, from: number, phi: Float64Array | null): void {
  if (!hearTelling(ctx, x, from, phi) || !pairwise(ctx.params)) return;
  // The teller met someone who already knew: it stops (both models); in Daley-Kendall a
  // spreader who is told again stops too.
  if (from >= 0) ctx.tell(from, 'ack', x.name);
  if (ctx.params.model === 'daley-kendall' && ctx.in(x.region, x.spreader)) ctx.fire(x.stifle);
}

function spread(ctx: Ctx, x: ItemHandles): void {
  if (pairwise(ctx.params)) {
    const j = ctx.randomNeighbour();
    if (ctx.params.contact === 'delayed') {
      if (j >= 0) ctx.tell(j, 'tell', x.name);
    } else if (ctx.encounter(j, 'tell', x.name)?.kind === 'ack') ctx.fire(x.stifle);
    return;
  }
  ctx.send({ to: 'neighbours' }, 'tell', x.name);
  ctx.fire(x.stifle);
}

/**
 * The step of a rumour-world agent: take in every telling and every "I already knew",
 * then, for each item it is spreading, tell one random neighbour (pairwise models: an
 * encounter, or a message when `contact=delayed`) or all neighbours once (cascade models).
 * `phi` holds the Watts thresholds (null for other models).
 */
export function createRumorPolicy(phi: Float64Array | null): (ctx: Ctx) => void {
  return (ctx) => {
    const inbox = ctx.inbox;
    for (let k = 0; k < inbox.length; k++) {
      const x = inbox.itemOf(k) === 'fact' ? FACT : RUMOR;
      const kind = inbox.kindOf(k);
      if (kind === 'tell') hear(ctx, x, inbox.fromOf(k), phi);
      else if (kind === 'ack' && ctx.in(x.region, x.spreader)) ctx.fire(x.stifle);
    }
    if (ctx.in(FACT.region, FACT.spreader)) spread(ctx, FACT);
    if (ctx.in(RUMOR.region, RUMOR.spreader)) spread(ctx, RUMOR);
  };
}

/**
 * How an agent answers a telling in an encounter (`contact=instant`): an ignorant agent
 * takes it in; one who already knew says so ("ack"), and the teller stops. Maki–Thompson:
 * only the teller stops. Daley–Kendall: two spreaders who meet both stop; since either of
 * them may open that meeting, each opening counts with probability 1/2 (drawn by the
 * responder), so every pair of agents meets at the same rate, as in Daley and Kendall's
 * chain (docs/VALIDATION.md).
 */
export function rumorResponder(ctx: Ctx, said: Message): void {
  if (said.kind !== 'tell') return;
  const x = said.item === 'fact' ? FACT : RUMOR;
  const wasSpreader = ctx.in(x.region, x.spreader);
  if (!hearTelling(ctx, x, said.from, null)) return;
  if (ctx.params.model === 'daley-kendall' && wasSpreader) {
    if (!ctx.rng.chance(0.5)) return;
    ctx.fire(x.stifle);
  }
  ctx.reply('ack', x.name);
}
