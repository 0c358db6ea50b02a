/**
 * The heavy version of test/worlds/continuous-time.test.ts: activation by state against rate-1
 * activation for the built-in continuous-time models, more runs and larger populations.
 * Prints, per model and outcome (final size or reach, time to extinction, peak time), the means
 * of both arms, the two-sample Kolmogorov–Smirnov D and p, and the Holm-adjusted p over all of
 * them; then the power of a KS test with these sample sizes against a location shift of
 * 0.25, 0.5 and 0.75 standard deviations of normal data, measured (at α = 0.01).
 *
 *   npx tsx bench/continuous-equivalence.ts [--runs 1000] [--n 400]
 */
import { parseArgs } from 'node:util';
import { SeededStream } from '../src/core/index.ts';
import { holm, twoSampleKs } from '../src/stats/index.ts';
import { activationCases, runCase } from '../test/support/activation-cases.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '1000' }, n: { type: 'string', default: '400' } },
});
const runs = Number(values.runs);
const n = Number(values.n);

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main(): Promise<void> {
  const rows: {
    model: string;
    outcome: string;
    uniform: number;
    byState: number;
    d: number;
    p: number;
    steps: string;
  }[] = [];
  for (const c of activationCases(n)) {
    const uniform = [];
    const byState = [];
    for (let k = 0; k < runs; k++) {
      uniform.push(await runCase(c, 'uniform', 1 + k));
      byState.push(await runCase(c, 'by-state', 10_000_001 + k));
    }
    const steps = `${mean(uniform.map((r) => r.steps)).toFixed(0)} → ${mean(byState.map((r) => r.steps)).toFixed(0)}`;
    for (const o of c.outcomes) {
      const a = uniform.map((r) => r[o]);
      const b = byState.map((r) => r[o]);
      rows.push({
        model: c.name,
        outcome: o,
        uniform: mean(a),
        byState: mean(b),
        ...twoSampleKs(a, b),
        steps,
      });
    }
  }
  const adjusted = holm(rows.map((r) => r.p));
  console.log(`runs per arm: ${runs}, n = ${n} (SIS: ${Math.round(n * 0.6)})\n`);
  console.log('| model | outcome | mean, rate 1 | mean, by state | KS D | p | Holm p | steps per run |');
  console.log('|---|---|--:|--:|--:|--:|--:|--:|');
  rows.forEach((r, k) => {
    const cells = [r.model, r.outcome, r.uniform.toFixed(4), r.byState.toFixed(4), r.d.toFixed(4)];
    console.log(`| ${cells.join(' | ')} | ${r.p.toFixed(3)} | ${adjusted[k].toFixed(3)} | ${r.steps} |`);
  });
  console.log(`\npower of one KS test, ${runs} vs ${runs} runs, α = 0.01, normal data shifted by δ sd:`);
  const rng = new SeededStream('power');
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  for (const delta of [0.1, 0.25, 0.5, 0.75]) {
    let hits = 0;
    const trials = 500;
    for (let t = 0; t < trials; t++) {
      const a = Array.from({ length: runs }, normal);
      const b = Array.from({ length: runs }, () => delta + normal());
      if (twoSampleKs(a, b).p < 0.01) hits++;
    }
    console.log(`  δ = ${delta}: ${(hits / trials).toFixed(3)}`);
  }
}

await main();
