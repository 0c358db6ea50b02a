/**
 * Network generation at scale: times each typed-array generator (Watts–Strogatz,
 * Erdős–Rényi G(n,m), Barabási–Albert, a two-block SBM) at the given sizes, one child
 * process per (generator, n) so RSS is the generator's own. Prints CPU seconds (user+sys),
 * wall seconds (an upper bound on a loaded machine), peak RSS, edges and an FNV checksum of
 * the CSR arrays (same seed => same checksum).
 *
 *   npx tsx bench/generators.ts [--n 100000,1000000,10000000] [--only ws,er,ba,sbm] [--seed 1]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RngStreams } from '../src/core/index.ts';
import {
  barabasiAlbert,
  type CsrTopology,
  erdosRenyi,
  stochasticBlockModel,
  wattsStrogatz,
} from '../src/network/index.ts';

const KINDS = ['ws', 'er', 'ba', 'sbm'] as const;
type Kind = (typeof KINDS)[number];

/** The graph of `kind` at `n` agents, mean degree about 10. */
function build(kind: Kind, n: number, seed: number): CsrTopology {
  const rng = new RngStreams(seed).stream('network');
  switch (kind) {
    case 'ws':
      return wattsStrogatz({ n, k: 10, beta: 0.1 }, rng);
    case 'er':
      return erdosRenyi({ n, m: 5 * n }, rng);
    case 'ba':
      return barabasiAlbert({ n, m: 5 }, rng);
    case 'sbm': {
      const half = Math.floor(n / 2);
      const pin = 9 / half;
      const pout = 1 / half;
      return stochasticBlockModel(
        {
          sizes: [half, n - half],
          p: [
            [pin, pout],
            [pout, pin],
          ],
        },
        rng,
      );
    }
  }
}

/** FNV-1a over the offsets and neighbours arrays. */
function checksum(t: CsrTopology): string {
  let h = 0x811c9dc5;
  for (const a of [t.offsets, t.neighbours])
    for (let i = 0; i < a.length; i++) h = Math.imul(h ^ a[i], 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

function child(kind: Kind, n: number, seed: number): void {
  const c0 = process.cpuUsage();
  const w0 = process.hrtime.bigint();
  const t = build(kind, n, seed);
  const wall = Number(process.hrtime.bigint() - w0) / 1e9;
  const c = process.cpuUsage(c0);
  const out = {
    kind,
    n,
    edges: t.edgeCount,
    cpu: (c.user + c.system) / 1e6,
    wall,
    rssMB: process.resourceUsage().maxRSS / 1024,
    checksum: checksum(t),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function main(): void {
  const seed = Number(arg('seed', '1'));
  if (process.argv.includes('--child')) {
    child(arg('kind', 'ws') as Kind, Number(arg('n', '1000')), seed);
    return;
  }
  const sizes = arg('n', '100000,1000000,10000000').split(',').map(Number);
  const kinds = arg('only', KINDS.join(',')).split(',') as Kind[];
  const self = fileURLToPath(import.meta.url);
  console.log('| generator | n | edges | CPU s | wall s | peak RSS MB | checksum |');
  console.log('|---|--:|--:|--:|--:|--:|---|');
  for (const kind of kinds)
    for (const n of sizes) {
      const args = [
        '--import',
        'tsx',
        self,
        '--child',
        '--kind',
        kind,
        '--n',
        String(n),
        '--seed',
        String(seed),
      ];
      const r = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }).trim());
      console.log(
        `| ${kind} | ${n} | ${r.edges} | ${r.cpu.toFixed(2)} | ${r.wall.toFixed(2)} | ${r.rssMB.toFixed(0)} | ${r.checksum} |`,
      );
    }
}

main();
