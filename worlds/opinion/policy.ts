import { type Policy, RunError, type StepContext } from '../../src/index.ts';
import { OPINION_KIND, SLOT } from './machine.ts';
import type { OpinionParams } from './params.ts';
import type { TrustWeights } from './trust-weights.ts';

type Ctx = StepContext<OpinionParams>;

/**
 * (W x)_i with equal weights on self and on every agent heard from: the neighbours' opinions
 * of the previous tick, all sent then. An agent that heard nothing keeps its opinion.
 */
function equalAverage(ctx: Ctx, x: number): number {
  const inbox = ctx.inbox;
  let sum = x;
  let count = 1;
  for (let k = 0; k < inbox.length; k++) {
    const m = inbox.get(k);
    if (m.kind !== OPINION_KIND) continue;
    sum += m.payload as number;
    count++;
  }
  return sum / count;
}

/** (W x)_i with the weights of agent i's row of a file; every agent it listens to must have spoken. */
function weightedAverage(ctx: Ctx, x: number, w: TrustWeights): number {
  const inbox = ctx.inbox;
  let sum = w.self[ctx.agent] * x;
  let heard = 0;
  for (let k = 0; k < inbox.length; k++) {
    const m = inbox.get(k);
    if (m.kind !== OPINION_KIND) continue;
    sum += w.weight(ctx.agent, m.from) * (m.payload as number);
    heard++;
  }
  if (heard !== w.heard(ctx.agent))
    throw new RunError(
      `agent ${ctx.agent} heard ${heard} opinions at tick ${ctx.tick}, its row of W needs ${w.heard(ctx.agent)}`,
      {
        hint: 'the weighted update needs every opinion of the previous tick: keep the simultaneous turn policy',
      },
    );
  return sum;
}

/** Hegselmann–Krause: the mean of its own opinion and every heard opinion within ε (inclusive). */
function boundedAverage(ctx: Ctx, x: number): number {
  const inbox = ctx.inbox;
  const eps = ctx.params.epsilon;
  let sum = x;
  let count = 1;
  for (let k = 0; k < inbox.length; k++) {
    const m = inbox.get(k);
    const y = m.payload as number;
    if (m.kind !== OPINION_KIND || Math.abs(y - x) > eps) continue;
    sum += y;
    count++;
  }
  return sum / count;
}

function nextOpinion(ctx: Ctx, x: number, weights: TrustWeights | null): number {
  const p = ctx.params;
  if (p.model === 'hegselmann-krause') return boundedAverage(ctx, x);
  const wx = weights ? weightedAverage(ctx, x, weights) : equalAverage(ctx, x);
  if (p.model === 'degroot') return wx;
  const lambda = ctx.slot(SLOT.lambda);
  return lambda * wx + (1 - lambda) * ctx.slot(SLOT.u);
}

/**
 * The step of an opinion agent at tick t: its inbox holds the opinions x_j(t−1) that the
 * agents it listens to sent at t−1 (latency 1); it computes x_i(t) from them and its own
 * x_i(t−1), records |Δx|, and sends x_i(t) to its listeners for tick t+1. Every agent steps
 * every tick, so the update is exactly synchronous.
 */
export function opinionPolicy(weights: TrustWeights | null): Policy<OpinionParams> {
  return (ctx) => {
    const x = ctx.slot(SLOT.x);
    const next = nextOpinion(ctx, x, weights);
    ctx.setSlot(SLOT.x, next);
    ctx.setSlot(SLOT.dx, Math.abs(next - x));
    ctx.send({ to: 'neighbours' }, OPINION_KIND, undefined, next);
  };
}
