/**
 * Sets up a folder outside the checkout for the own-world benchmarks: the misinformation
 * example as a user writes it, and the built-in epidemic world rewritten as a user's file
 * (its imports from `grapevine` only), so that the same world runs as a file and built in.
 * Prints the paired whole-process commands to run (docs/PERFORMANCE.md, "A user's world").
 *
 *   npx tsx bench/studies/own-world-setup.ts /tmp/own-bench
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? '/tmp/own-bench');
mkdirSync(dir, { recursive: true });
copyFileSync(resolve('docs/examples/misinformation.ts'), join(dir, 'misinformation.ts'));

// the epidemic world needs one function of the rumour world's theory: giantFraction
const theory = readFileSync(resolve('worlds/rumor/theory.ts'), 'utf8');
const at = theory.indexOf('export function giantFraction');
const end = theory.indexOf('\n}\n', at);
if (at < 0 || end < 0) throw new Error('worlds/rumor/theory.ts no longer exports giantFraction');
writeFileSync(join(dir, 'theory.ts'), theory.slice(theory.lastIndexOf('/**', at), end + 3));
const epidemic = readFileSync(resolve('worlds/epidemic/index.ts'), 'utf8')
  .replace("'../../src/index.ts'", "'grapevine'")
  .replace("'../rumor/theory.ts'", "'./theory.ts'");
writeFileSync(join(dir, 'epidemic.ts'), epidemic);

const g = `node ${resolve('bin/grapevine.mjs')}`;
const paired = `npx tsx ${resolve('bench/tools/paired.ts')}`;
const epi = '--set n=50000 --set initial=20 --set network=barabasi-albert --set contactRate=0.8';
process.stdout.write(
  [
    `cd ${dir} && ${g} check ./misinformation.ts && ${g} check ./epidemic.ts`,
    `${paired} -n 9 --vs "${g} run ./misinformation.ts --executor columnar --out c.ndjson --force --quiet" -- ${g} run ./misinformation.ts --out a.ndjson --force --quiet`,
    `${paired} -n 5 --vs "${g} run ./misinformation.ts --executor xstate --out x.ndjson --force --quiet" -- ${g} run ./misinformation.ts --out a.ndjson --force --quiet`,
    `${paired} -n 15 --vs "${g} run ./misinformation.ts --no-check --set n=200 --out n.ndjson --force --quiet" -- ${g} run ./misinformation.ts --set n=200 --out a.ndjson --force --quiet`,
    `${paired} -n 9 --vs "${g} run epidemic ${epi} --out b.ndjson --force --quiet" -- ${g} run ./epidemic.ts ${epi} --out o.ndjson --force --quiet`,
    `${paired} -n 11 --vs "${g} run epidemic --ticks 1 --out b.ndjson --force --quiet" -- ${g} run ./epidemic.ts --ticks 1 --out o.ndjson --force --quiet`,
    '',
  ].join('\n'),
);
