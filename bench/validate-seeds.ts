/**
 * The correct models against the battery at consecutive base seeds: every case should pass
 * at every seed (the battery's false-failure rate is 1% per seed, Bonferroni over its cases).
 * Prints one line per seed (wall time, cases failed) and, at the end, each case's failures.
 *
 *   npx tsx bench/validate-seeds.ts [first-seed] [seeds] [--quick]
 */
import { runBattery } from '../src/public/analysis.ts';
import { builtinValidationCases } from '../worlds/validation.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const quick = process.argv.includes('--quick');
const first = Number(args[0] ?? 1);
const seeds = Number(args[1] ?? 20);
const failures = new Map<string, number[]>();
let total = 0;
for (let seed = first; seed < first + seeds; seed++) {
  const t = Date.now();
  const rows = await runBattery(builtinValidationCases(), { seed, quick });
  const failed = rows.filter((r) => !r.pass);
  for (const r of failed) failures.set(r.id, [...(failures.get(r.id) ?? []), seed]);
  const seconds = (Date.now() - t) / 1000;
  total += seconds;
  const detail = failed.map(
    (r) => `${r.id} (${r.observed} not in [${r.lo}, ${r.hi}]${r.reason ? `: ${r.reason}` : ''})`,
  );
  console.log(
    `seed ${seed}: ${rows.length - failed.length}/${rows.length} pass in ${seconds.toFixed(1)} s ${detail.join('; ')}`,
  );
}
console.log(`${seeds} seeds, ${quick ? 'quick' : 'full'} battery, ${total.toFixed(0)} s in all`);
for (const [id, at] of failures) console.log(`failed: ${id} at seeds ${at.join(', ')}`);
