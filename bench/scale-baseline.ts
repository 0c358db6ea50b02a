/**
 * Child entry of bench/scale.ts: the hand-written typed-array rumour model
 * (bench/rumor-baseline.ts) as a whole process, on the same network and seeds as
 * `grapevine run rumor --set contact=delayed`. Prints one JSON line with the figures the
 * engine's `end` line also has, so that bench/scale.ts can check that both ran the same run.
 *
 *   node --import tsx bench/scale-baseline.ts <n> <seed> <daley-kendall|maki-thompson>
 */
import { buildRumorSetup, RumorBaseline } from './rumor-baseline.ts';

const [n, seed] = [Number(process.argv[2]), Number(process.argv[3])];
const model = process.argv[4] === 'maki-thompson' ? 'maki-thompson' : 'daley-kendall';
if (!Number.isInteger(n) || n < 2 || !Number.isSafeInteger(seed))
  throw new Error('usage: scale-baseline.ts <n> <seed> <daley-kendall|maki-thompson>');
const result = new RumorBaseline(buildRumorSetup({ n, seed }), model).run();
process.stdout.write(`${JSON.stringify(result)}\n`);
