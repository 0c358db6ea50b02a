import type { Policy, WorldDefinition } from '../../../src/index.ts';
import { epidemicAgent, world } from '../../../worlds/epidemic/index.ts';
import { epidemicValidationCases } from '../../../worlds/epidemic/validation.ts';
import { type BrokenRow, brokenRowOf, withInstance, withParams } from '../variants.ts';

// The broken-variant table of the epidemic world's cases (docs/VALIDATION.md): each mutation
// wraps the public world definition (test-only code); the case must fail at seed 1 with its
// battery α and its full budget unless marked quick.
const EPIDEMIC = world;

const beta = (f: number) => withParams(EPIDEMIC, (p) => ({ ...p, beta: (p.beta as number) * f }));
/** Time runs fast by a factor f: every rate × f, R0 and every end state unchanged. */
const faster = (f: number) =>
  withParams(EPIDEMIC, (p) => ({
    ...p,
    contactRate: (p.contactRate as number) * f,
    gamma: (p.gamma as number) * f,
  }));

const rate = (key: 'tau' | 'gamma', f: number) =>
  withParams(EPIDEMIC, (p) => ({ ...p, [key]: (p[key] as number) * f }));

const L = epidemicAgent.layout;
const HEALTH = L.region('health');
const INFECTED = L.state(HEALTH, 'infected');
const RECOVER = L.event('RECOVER');

/**
 * Per contact in place of per edge, at the same mean rate: every infected agent tries a
 * random neighbour at rate τ·k (k the mean degree) whatever its own degree, so a hub's edges
 * each carry fewer tries and a leaf's more.
 */
const BASE: WorldDefinition = EPIDEMIC;
const perContact: WorldDefinition = {
  ...BASE,
  create: (setup) => {
    const p = setup.params as { tau: number; gamma: number; k: number };
    const total = p.gamma + p.tau * p.k;
    const policy: Policy<unknown> = (ctx) => {
      if (!ctx.in(HEALTH, INFECTED)) return;
      if (ctx.rng.next() * total < p.gamma) ctx.fire(RECOVER);
      else ctx.encounter(ctx.randomNeighbour(), 'contact');
    };
    return withInstance(BASE, () => ({
      policy,
      activation: { rate: (i, view) => (view.executor.stateIndex(i, HEALTH) === INFECTED ? total : 0) },
    })).create(setup);
  },
};

const row = brokenRowOf(epidemicValidationCases);

/** Each row: the case, the mutation, the broken world, quick or full budget, part of npm test or only of the bench. */
export const EPIDEMIC_ROWS: BrokenRow[] = [
  row('sir-well-mixed-r0-0.5', 'β × 2.4 (R0 = 1.2)', beta(2.4), true, true),
  row('sir-well-mixed-r0-0.5', 'β × 1.4', beta(1.4), false, false),
  row('sir-well-mixed-r0-1.5', 'β × 0.65 (R0 ≈ 0.98)', beta(0.65), true, true),
  row('sir-well-mixed-r0-1.5', 'β × 1.06', beta(1.06), false, true),
  row('sir-well-mixed-r0-1.5', 'β × 0.9', beta(0.9), false, false),
  row('sir-well-mixed-r0-2.5', 'β × 0.9', beta(0.9), false, true),
  row('sir-well-mixed-r0-2.5', 'β × 1.06', beta(1.06), false, false),
  row('sir-early-growth', 'time × 1.1', faster(1.1), false, false),
  row('sir-early-growth', 'time × 1.2', faster(1.2), true, true),
  row('sir-epidemic-centre', 'time × 1.1', faster(1.1), false, true),
  row('sir-per-edge-er', 'τ × 0.9', rate('tau', 0.9), true, true),
  row('sir-per-edge-er', 'τ × 0.95', rate('tau', 0.95), false, false),
  row('sir-per-edge-er', 'γ × 1.1', rate('gamma', 1.1), false, false),
  row('sir-per-edge-er', 'per contact at rate τ·k in place of per edge', perContact, true, true),
];
