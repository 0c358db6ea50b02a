import { describe, expect, it } from 'vitest';
import type { WorldDefinition } from '../../src/index.ts';
import { world } from '../../worlds/epidemic/index.ts';
import { epidemicValidationCases } from '../../worlds/epidemic/validation.ts';
import { explain, runAlone, withParams } from './variants.ts';

// The broken-variant table of the epidemic world's cases (docs/VALIDATION.md): each mutation
// wraps the public world definition in the test; the case must fail at seed 1 with its
// battery α and its full budget unless marked quick.
const EPIDEMIC = world as unknown as WorldDefinition;

const beta = (f: number) => withParams(EPIDEMIC, (p) => ({ ...p, beta: (p.beta as number) * f }));
/** Time runs 10% fast: every rate × 1.1, R0 and every end state unchanged. */
const faster = withParams(EPIDEMIC, (p) => ({
  ...p,
  contactRate: (p.contactRate as number) * 1.1,
  gamma: (p.gamma as number) * 1.1,
}));

const TABLE: [string, string, WorldDefinition, boolean][] = [
  ['sir-well-mixed-r0-0.5', 'β × 2.4 (R0 = 1.2)', beta(2.4), true],
  ['sir-well-mixed-r0-0.5', 'β × 1.4', beta(1.4), false],
  ['sir-well-mixed-r0-1.5', 'β × 0.65 (R0 ≈ 0.98)', beta(0.65), true],
  ['sir-well-mixed-r0-1.5', 'β × 1.06', beta(1.06), false],
  ['sir-well-mixed-r0-1.5', 'β × 0.9', beta(0.9), false],
  ['sir-well-mixed-r0-2.5', 'β × 0.9', beta(0.9), false],
  ['sir-well-mixed-r0-2.5', 'β × 1.06', beta(1.06), false],
  ['sir-early-growth', 'time × 1.1', faster, false],
  ['sir-epidemic-centre', 'time × 1.1', faster, false],
];

describe('broken epidemic models fail their cases', () => {
  it.each(TABLE)(
    '%s fails when %s',
    async (id, _what, variant, quick) => {
      const row = await runAlone(epidemicValidationCases(variant), id, { quick });
      expect(row.pass, explain(row)).toBe(false);
    },
    300_000,
  );

  it('every case passes time × 1.1 but the two time-course cases: they alone read the clock', async () => {
    const ids = epidemicValidationCases().map((c) => c.id);
    expect(ids.filter((id) => !TABLE.some(([t, what]) => t === id && what === 'time × 1.1'))).toEqual([
      'sir-well-mixed-r0-0.5',
      'sir-well-mixed-r0-1.5',
      'sir-well-mixed-r0-2.5',
    ]);
  });
});
