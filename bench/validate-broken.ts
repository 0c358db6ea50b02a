/**
 * The whole broken-variant table (docs/VALIDATION.md), each row at consecutive base seeds:
 * every row must fail its case at every seed. npm test runs the rows marked `inTests` at seed 1.
 * A row stops as soon as its failure is certain (the battery's exact `stopWhenDecided`): the
 * counts are those of the full budgets.
 *
 *   npx tsx bench/validate-broken.ts [first-seed] [seeds] [case-id-part] [--skip=N]
 *
 * `--skip=N` leaves out the first N matching rows (to resume a long run).
 */
import { EPIDEMIC_ROWS } from '../test/validate/broken/epidemic-variants.ts';
import { OPINION_ROWS } from '../test/validate/broken/opinion-variants.ts';
import { RUMOR_ROWS } from '../test/validate/broken/rumor-variants.ts';
import { runAlone } from '../test/validate/variants.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const skip = Number(process.argv.find((a) => a.startsWith('--skip='))?.slice(7) ?? 0);
const first = Number(args[0] ?? 1);
const seeds = Number(args[1] ?? 3);
const only = args[2] ?? '';
let missed = 0;
for (const r of [...RUMOR_ROWS, ...EPIDEMIC_ROWS, ...OPINION_ROWS]
  .filter((x) => x.id.includes(only))
  .slice(skip)) {
  const caught: number[] = [];
  const t = Date.now();
  for (let seed = first; seed < first + seeds; seed++) {
    const row = await runAlone(r.cases(), r.id, { quick: r.quick, seed, stopWhenDecided: true });
    if (!row.pass) caught.push(seed);
  }
  missed += seeds - caught.length;
  const budget = r.quick ? 'quick' : 'full';
  console.log(
    `${r.id} | ${r.what} | ${budget} | failed at ${caught.length}/${seeds} seeds | ${((Date.now() - t) / 1000).toFixed(0)} s`,
  );
}
console.log(`${missed} row-seeds where a broken model passed`);
