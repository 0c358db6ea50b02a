// Sweep throughput: the same sweep of the rumour world with 1 and with 2 worker threads,
// through the built CLI (run `npm run build` first). Prints wall times, runs/s and the
// parallel efficiency T1 / (2 · T2), and checks that both results tables are equal.
//
//   npx tsx bench/sweep.ts [--runs 200] [--n 10000] [--ticks 1000]
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    n: { type: 'string', default: '10000' },
    ticks: { type: 'string', default: '1000' },
  },
});
const runs = Number(values.runs);
const BETAS = ['0.05', '0.1', '0.2', '0.4'];
const replicates = Math.ceil(runs / BETAS.length);
const BIN = resolve('bin/grapevine.mjs');
const OUT = resolve('bench/out');

function sweep(workers: number): { wallMs: number; table: string } {
  const out = join(OUT, `sweep-w${workers}`);
  rmSync(out, { recursive: true, force: true });
  const args = [
    'sweep',
    'rumor',
    '--grid',
    `beta=${BETAS.join(',')}`,
    '--set',
    `n=${values.n}`,
    '--replicates',
    String(replicates),
    '--ticks',
    String(values.ticks),
    '--seed',
    '1',
    '--workers',
    String(workers),
    '--out',
    out,
    '--json',
  ];
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`sweep with ${workers} workers failed: ${r.stderr}`);
  const summary = JSON.parse(r.stdout) as { wallMs: number; ran: number };
  if (summary.ran !== BETAS.length * replicates)
    throw new Error(`expected ${BETAS.length * replicates} runs, ran ${summary.ran}`);
  return { wallMs: summary.wallMs, table: readFileSync(join(out, 'results.csv'), 'utf8') };
}

const total = BETAS.length * replicates;
const one = sweep(1);
const two = sweep(2);
const s1 = one.wallMs / 1000;
const s2 = two.wallMs / 1000;
console.log(`sweep of ${total} rumour runs, n=${values.n}`);
console.log(`1 worker : ${s1.toFixed(1)} s (${(total / s1).toFixed(2)} runs/s)`);
console.log(`2 workers: ${s2.toFixed(1)} s (${(total / s2).toFixed(2)} runs/s)`);
console.log(`speed-up ${(s1 / s2).toFixed(2)}, parallel efficiency ${((s1 / (2 * s2)) * 100).toFixed(0)}%`);
console.log(`results tables equal: ${one.table === two.table}`);
