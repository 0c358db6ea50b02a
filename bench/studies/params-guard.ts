/**
 * What the parameter guard costs on a policy's hot path: reads of declared keys of the
 * guarded parameters (own data properties, an undeclared key falling through to a throwing
 * prototype) against reads of a plain object, in alternating rounds of the same loop.
 *
 *   npx tsx bench/studies/params-guard.ts
 */
import { guardParams } from '../../src/world/guarded-params.ts';

const declared = {
  n: 5000,
  m: 3,
  seeds: 5,
  checkers: 0.05,
  beta: 0.3,
  gamma: 0.1,
  alpha: 0.6,
  checkTicks: 5,
};
const plain = { ...declared };
const guarded = guardParams('bench', { ...declared }, Object.keys(declared));
const READS = 20_000_000;

// two copies of one loop: each stays monomorphic on its own object's shape
const loops = [0, 1].map(
  () =>
    new Function(
      'p',
      'reads',
      'let s = 0; for (let i = 0; i < reads; i++) s += p.beta + p.gamma + p.alpha + p.checkTicks; return s;',
    ) as (p: typeof declared, reads: number) => number,
);
const loop = (p: typeof declared) => loops[p === plain ? 0 : 1](p, READS);

const rounds: { plain: number; guarded: number }[] = [];
for (let r = 0; r < 15; r++) {
  const t0 = process.hrtime.bigint();
  const a = loop(plain);
  const t1 = process.hrtime.bigint();
  const b = loop(guarded);
  const t2 = process.hrtime.bigint();
  if (a !== b) throw new Error('the two objects read differently');
  rounds.push({ plain: Number(t1 - t0) / 1e6, guarded: Number(t2 - t1) / 1e6 });
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const ratios = rounds.map((r) => r.guarded / r.plain);
process.stdout.write(
  `${4 * READS} reads per round, 15 rounds: plain median ${median(rounds.map((r) => r.plain)).toFixed(1)} ms, guarded ${median(rounds.map((r) => r.guarded)).toFixed(1)} ms, guarded/plain per round: median ${median(ratios).toFixed(3)} (min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)})\n`,
);
