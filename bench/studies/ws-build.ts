/**
 * The Watts–Strogatz build as `grapevine run rumor` does it (the `network` stream of the
 * run's seed), in fresh processes: the first call in a process (cold, as a run pays it) and
 * later calls (warm, as a fork batch pays it without its network share). Loads the built
 * network module of a checkout (`npm run build` first), so two builds can be compared in
 * turn: `--vs ROOT` alternates this checkout's build with ROOT's, process by process.
 * Prints per build the median cold and warm wall (ms), the cold CPU (user + system of all
 * threads, ms), the cold main thread's time on a CPU (Linux schedstat, ms: V8's compiler
 * threads aside, and waiting for a core on a loaded machine aside), the cold minor page
 * faults, the process's peak RSS and the CSR checksum (FNV-1a of offsets then neighbours).
 *
 *   npx tsx bench/studies/ws-build.ts [--n 100000] [--k 10] [--beta 0.1] [--seed 1] [--runs 9]
 *     [--warm 5] [--vs OTHER_CHECKOUT]
 */
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));

interface Sample {
  coldMs: number;
  coldCpuMs: number;
  coldMainMs: number;
  coldFaults: number;
  peakMB: number;
  warmMs: number;
  checksum: string;
}

/** The child: one cold build, then `warm` more, in this process. */
const CHILD = `
const [root, n, k, beta, seed, warm] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const onCpu = () => {
  try {
    return Number(readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
};
const core = await import(root + '/dist/src/core/index.js');
const net = await import(root + '/dist/src/network/index.js');
const spec = { n: Number(n), k: Number(k), beta: Number(beta) };
const rng = () => new core.RngStreams(Number(seed)).stream('network');
const r0 = rng();
const f0 = process.resourceUsage().minorPageFault;
const c0 = process.cpuUsage();
const m0 = onCpu();
const t0 = performance.now();
const t = net.wattsStrogatz(spec, r0);
const coldMs = performance.now() - t0;
const coldMainMs = onCpu() - m0;
const c = process.cpuUsage(c0);
const coldFaults = process.resourceUsage().minorPageFault - f0;
const warms = [];
for (let i = 0; i < Number(warm); i++) {
  const r = rng();
  const w0 = performance.now();
  net.wattsStrogatz(spec, r);
  warms.push(performance.now() - w0);
}
warms.sort((a, b) => a - b);
let h = 0x811c9dc5;
for (const a of [t.offsets, t.neighbours])
  for (let i = 0; i < a.length; i++) h = Math.imul(h ^ a[i], 0x01000193) >>> 0;
process.stdout.write(JSON.stringify({
  coldMs, coldCpuMs: (c.user + c.system) / 1000, coldMainMs, coldFaults, peakMB: process.resourceUsage().maxRSS / 1024,
  warmMs: warms.length ? warms[warms.length >> 1] : NaN,
  checksum: h.toString(16).padStart(8, '0'),
}));
`;

function sample(root: string, n: string, k: string, beta: string, seed: string, warm: string): Sample {
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', CHILD, pathToFileURL(root).href, n, k, beta, seed, warm],
    { encoding: 'utf8' },
  );
  return JSON.parse(out) as Sample;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    k: { type: 'string', default: '10' },
    beta: { type: 'string', default: '0.1' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '9' },
    warm: { type: 'string', default: '5' },
    vs: { type: 'string' },
  },
});
const roots = [resolve(join(HERE, '..', '..'))];
if (values.vs) roots.push(resolve(values.vs));
const samples: Sample[][] = roots.map(() => []);
for (let r = 0; r < Number(values.runs); r++)
  roots.forEach((root, i) => {
    samples[i].push(sample(root, values.n, values.k, values.beta, values.seed, values.warm));
  });
console.log(
  `WS(n=${values.n}, k=${values.k}, beta=${values.beta}), seed ${values.seed}, ${values.runs} processes each`,
);
console.log(
  '| build | cold ms | cold CPU ms | cold main thread ms | cold faults | peak RSS MB | warm ms | checksum |',
);
console.log('|---|--:|--:|--:|--:|--:|--:|---|');
roots.forEach((root, i) => {
  const s = samples[i];
  const sums = [...new Set(s.map((x) => x.checksum))].join(',');
  console.log(
    `| ${root} | ${median(s.map((x) => x.coldMs)).toFixed(1)} | ${median(s.map((x) => x.coldCpuMs)).toFixed(1)} | ${median(s.map((x) => x.coldMainMs)).toFixed(1)} | ${median(s.map((x) => x.coldFaults))} | ${median(s.map((x) => x.peakMB)).toFixed(0)} | ${Number(values.warm) > 0 ? median(s.map((x) => x.warmMs)).toFixed(1) : '-'} | ${sums} |`,
  );
});
if (roots.length === 2) {
  for (const key of ['coldMs', 'coldCpuMs', 'coldMainMs'] as const) {
    const ratios = samples[0].map((x, i) => x[key] / samples[1][i][key]);
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `${key}, this / vs, per pair: median ${median(ratios).toFixed(2)}x (${sorted[0].toFixed(2)}-${sorted[sorted.length - 1].toFixed(2)})`,
    );
  }
}
