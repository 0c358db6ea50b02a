import { world } from '../../../worlds/epidemic/index.ts';
import { epidemicValidationCases } from '../../../worlds/epidemic/validation.ts';
import { type BrokenRow, brokenRowOf, withParams } from '../variants.ts';

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
];
