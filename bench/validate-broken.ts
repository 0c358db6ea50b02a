/**
 * The whole broken-variant table (docs/VALIDATION.md), each row at consecutive base seeds:
 * every row must fail its case at every seed. npm test runs the rows marked `inTests` at seed 1.
 *
 *   npx tsx bench/validate-broken.ts [first-seed] [seeds] [case-id-part]
 */
import { EPIDEMIC_ROWS } from '../test/validate/broken/epidemic-variants.ts';
import { OPINION_ROWS } from '../test/validate/broken/opinion-variants.ts';
import { RUMOR_ROWS } from '../test/validate/broken/rumor-variants.ts';
import { runAlone } from '../test/validate/variants.ts';

const first = Number(process.argv[2] ?? 1);
const seeds = Number(process.argv[3] ?? 3);
const only = process.argv[4] ?? '';
let missed = 0;
for (const r of [...RUMOR_ROWS, ...EPIDEMIC_ROWS, ...OPINION_ROWS].filter((x) => x.id.includes(only))) {
  const caught: number[] = [];
  const t = Date.now();
  for (let seed = first; seed < first + seeds; seed++) {
    const row = await runAlone(r.cases(), r.id, { quick: r.quick, seed });
    if (!row.pass) caught.push(seed);
  }
  missed += seeds - caught.length;
  const budget = r.quick ? 'quick' : 'full';
  console.log(
    `${r.id} | ${r.what} | ${budget} | failed at ${caught.length}/${seeds} seeds | ${((Date.now() - t) / 1000).toFixed(0)} s`,
  );
}
console.log(`${missed} row-seeds where a broken model passed`);
