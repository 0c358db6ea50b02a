import { describe, expect, it } from 'vitest';
import { OPINION_ROWS } from './broken/opinion-variants.ts';
import { explain, runAlone } from './variants.ts';

// The opinion rows of the broken-variant table (docs/VALIDATION.md) that npm test runs, at seed 1;
// bench/validate-broken.ts runs every row, at several seeds. A row stops as soon as its failure
// is certain (the battery's exact stopWhenDecided: the verdict of the full budget).
describe('broken opinion models fail their cases', () => {
  it.each(OPINION_ROWS.filter((r) => r.inTests).map((r) => [r.id, r.what, r] as const))(
    '%s fails when %s',
    async (_id, _what, r) => {
      const row = await runAlone(r.cases(), r.id, { quick: r.quick, stopWhenDecided: true });
      expect(row.pass, explain(row)).toBe(false);
    },
    300_000,
  );
});
