import type { StepContext, WorldDefinition, WorldView } from '../../../src/index.ts';
import { world } from '../../../worlds/opinion/index.ts';
import { OPINION_KIND, SLOT } from '../../../worlds/opinion/machine.ts';
import { opinionCases } from '../../../worlds/opinion/validation.ts';
import { type BrokenRow, brokenRowOf, withInstance, withParams } from '../variants.ts';

// The broken-variant table of the opinion world's cases (docs/VALIDATION.md): each mutation
// wraps the public world definition (test-only code); the case must fail at seed 1 with its
// battery α and its full budget unless marked quick.
const OPINION = world;
const cases = (w: WorldDefinition) => opinionCases(w as unknown as typeof world);

const asynchronous = withInstance(OPINION, () => ({ turnPolicy: 'async' }));
const stale = withInstance(OPINION, () => ({ latency: 2 }));
const scale = (key: string, f: number) =>
  withParams(OPINION, (p) => ({ ...p, [key]: (p[key] as number) * f }));

/** The partner always claims opinion 1. */
const biased = withInstance(OPINION, () => ({
  respond: (ctx: StepContext) => ctx.reply('say', undefined, 1),
}));

/**
 * Invasion instead of copying (Sood, Antal & Redner 2008): agent i is converted at the rate
 * its disagreeing neighbours j impose their opinion on it, Σ 1/d_j (each neighbour picks one
 * of its own neighbours at rate 1), instead of its share of disagreeing neighbours.
 */
const invasion = withInstance(OPINION, (instance) => ({
  activation: {
    ...instance.activation,
    rate: (i: number, view: WorldView) => {
      const net = view.network!;
      const x = view.executor.slot(i, SLOT.x);
      let rate = 0;
      for (let k = 0; k < net.degree(i); k++) {
        const j = net.neighbour(i, k);
        if (view.executor.slot(j, SLOT.x) !== x) rate += 1 / net.degree(j);
      }
      return rate;
    },
  },
}));

/** Deffuant–Weisbuch where only the opener moves: the partner answers but keeps its opinion. */
const openerOnly = withInstance(OPINION, () => ({
  respond: (ctx: StepContext) => ctx.reply('say', undefined, ctx.slot(SLOT.x)),
}));

/** Friedkin–Johnsen anchored to the previous opinion instead of the initial one (no stubbornness). */
const noAnchor = withInstance(OPINION, () => ({
  policy: (ctx: StepContext) => {
    const x = ctx.slot(SLOT.x);
    let sum = x;
    let count = 1;
    for (let k = 0; k < ctx.inbox.length; k++) {
      const m = ctx.inbox.get(k);
      if (m.kind !== OPINION_KIND) continue;
      sum += m.payload as number;
      count++;
    }
    const lambda = ctx.slot(SLOT.lambda);
    const next = lambda * (sum / count) + (1 - lambda) * x;
    ctx.setSlot(SLOT.x, next);
    ctx.setSlot(SLOT.dx, Math.abs(next - x));
    ctx.send({ to: 'neighbours' }, OPINION_KIND, undefined, next);
  },
}));

/** Hegselmann–Krause that leaves an agent's own opinion out of its average. */
const withoutSelf = withInstance(OPINION, () => ({
  policy: (ctx: StepContext) => {
    const x = ctx.slot(SLOT.x);
    const eps = (ctx.params as { epsilon: number }).epsilon;
    let sum = 0;
    let count = 0;
    for (let k = 0; k < ctx.inbox.length; k++) {
      const m = ctx.inbox.get(k);
      const y = m.payload as number;
      if (m.kind === OPINION_KIND && Math.abs(y - x) <= eps) {
        sum += y;
        count++;
      }
    }
    const next = count > 0 ? sum / count : x;
    ctx.setSlot(SLOT.x, next);
    ctx.setSlot(SLOT.dx, Math.abs(next - x));
    ctx.send({ to: 'neighbours' }, OPINION_KIND, undefined, next);
  },
}));

/** Deterministic (exact) cases are shown broken by a single replicate: a broken update runs to the tick cap. */
function oneReplicateIfExact(w: WorldDefinition) {
  return cases(w).map((c) => (c.design(c.params).test === 'exact' ? { ...c, quickReplicates: 1 } : c));
}

const row = brokenRowOf(oneReplicateIfExact);

/** Each row: the case, the mutation, the broken world, quick or full budget, part of npm test or only of the bench. */
export const OPINION_ROWS: BrokenRow[] = [
  row('degroot-consensus', 'agents update asynchronously', asynchronous, true, true),
  row('degroot-consensus', 'opinions arrive two ticks late', stale, true, true),
  row(
    'friedkin-johnsen-steady-state',
    'anchored to the previous opinion, not the initial one',
    noAnchor,
    true,
    true,
  ),
  row('friedkin-johnsen-steady-state', 'opinions arrive two ticks late', stale, true, true),
  row('voter-exit-probability', 'the partner always claims opinion 1', biased, true, true),
  row('voter-exit-probability', 'the initial share is 0.5, not 0.3', scale('share', 5 / 3), true, true),
  row('voter-degree-weighted', 'agents are converted at the invasion rate Σ 1/d_j', invasion, false, true),
  row('deffuant-weisbuch-clusters', 'ε × 0.75', scale('epsilon', 0.75), false, true),
  row('deffuant-weisbuch-clusters', 'ε × 2', scale('epsilon', 2), false, true),
  row('deffuant-weisbuch-mean-conserved', 'only the opener moves', openerOnly, false, true),
  row('hegselmann-krause-reference', 'agents update asynchronously', asynchronous, true, true),
  row(
    'hegselmann-krause-reference',
    'an agent’s own opinion is left out of its average',
    withoutSelf,
    true,
    true,
  ),
];
