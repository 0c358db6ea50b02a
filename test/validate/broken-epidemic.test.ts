import { describe, expect, it } from 'vitest';
import { EPIDEMIC_ROWS } from './broken/epidemic-variants.ts';
import { type BrokenRow, explain, runAlone } from './variants.ts';

// The epidemic rows of the broken-variant table (docs/VALIDATION.md) that npm test runs, at seed 1;
// bench/validate-broken.ts runs every row, at several seeds. A row stops as soon as its failure
// is certain (the battery's exact stopWhenDecided: the verdict of the full budget).
describe('broken epidemic models fail their cases', () => {
  it.each(EPIDEMIC_ROWS.filter((r) => r.inTests).map((r) => [r.id, r.what, r] as const))(
    '%s fails when %s',
    async (_id, _what, r) => {
      const row = await runAlone(r.cases(), r.id, { quick: r.quick, stopWhenDecided: true });
      expect(row.pass, explain(row)).toBe(false);
    },
    300_000,
  );
});

function rowOf(id: string, what: string): BrokenRow {
  const r = EPIDEMIC_ROWS.find((x) => x.id === id && x.what === what);
  if (!r) throw new Error(`no broken row ${id}: ${what}`);
  return r;
}

async function bothWays(r: BrokenRow) {
  const full = await runAlone(r.cases(), r.id, { quick: r.quick });
  const stopped = await runAlone(r.cases(), r.id, { quick: r.quick, stopWhenDecided: true });
  return { full, stopped };
}

// the stop rule itself, over every continuation of small cases: test/validate/early-stop.test.ts
describe('stopWhenDecided on real broken rows, against their full runs', () => {
  it('a row stopped early (mean; too few runs left to qualify) fails as its full run does, on the same first replicates', async () => {
    for (const r of [
      rowOf('sir-well-mixed-r0-2.5', 'β × 0.9'),
      rowOf('sir-well-mixed-r0-1.5', 'β × 0.65 (R0 ≈ 0.98)'),
    ]) {
      const { full, stopped } = await bothWays(r);
      expect(full.pass, explain(full)).toBe(false);
      expect(stopped.pass).toBe(false);
      expect(stopped.decidedEarly, explain(stopped)).toBe(true);
      expect(stopped.runs).toBeLessThan(full.runs);
      expect(stopped.values).toEqual(full.values.slice(0, stopped.qualified));
    }
  }, 120_000);

  it('a row whose failure shows only at its last replicate runs its whole budget, row for row', async () => {
    const { full, stopped } = await bothWays(rowOf('sir-well-mixed-r0-1.5', 'β × 1.06'));
    expect(full.pass, explain(full)).toBe(false);
    expect(stopped).toEqual(full);
  }, 120_000);
});
