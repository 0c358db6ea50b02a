/**
 * The same CLI command run several times in one process, through the built CLI's `main`
 * (`npm run build` first): the first run pays the cold costs (code loaded and compiled on
 * first use, functions interpreted until they are optimised, fresh memory touched), the
 * later ones mostly do not. Prints per run the CPU (user + system), wall time and minor page
 * faults, and the cost of one page fault on this machine (fresh memory touched once).
 *
 *   npx tsx bench/tools/cold-warm.ts [--root CHECKOUT] [--runs 3] [--profile DIR] -- run rumor
 *     --set n=100000 --set model=maki-thompson --set contact=delayed --seed 1 --ticks 100000
 *     --out /tmp/cw.ndjson --quiet --force
 *
 * `--profile DIR` writes one inspector CPU profile per run (`run0.cpuprofile`, ...; sampled
 * every 100 us) for bench/tools/cpuprofile-summary.ts. The profile's time deltas are wall time:
 * on a loaded machine they overstate CPU.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({
  options: {
    root: { type: 'string', default: join(HERE, '..', '..') },
    runs: { type: 'string', default: '3' },
    profile: { type: 'string' },
  },
  allowPositionals: true,
});
if (positionals.length === 0) {
  process.stderr.write('cold-warm: give the CLI command after --, e.g. -- run rumor --out X --force\n');
  process.exit(2);
}
const root = resolve(values.root);
const runs = Number(values.runs);

/** CPU microseconds per minor page fault: 32 MiB of fresh memory, one byte per 4 KiB page. */
function faultCost(): { faults: number; usPerFault: number } {
  const f0 = process.resourceUsage().minorPageFault;
  const c0 = process.cpuUsage();
  const bytes = new Uint8Array(32 << 20);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
  const c = process.cpuUsage(c0);
  const faults = process.resourceUsage().minorPageFault - f0;
  return { faults, usPerFault: (c.user + c.system) / faults };
}

const { main } = await import(pathToFileURL(join(root, 'dist/cli/main.js')).href);
const { BUILTIN_CONTRIBUTIONS } = await import(pathToFileURL(join(root, 'dist/cli/worlds.js')).href);
const session = values.profile ? new Session() : undefined;
if (session && values.profile) {
  mkdirSync(values.profile, { recursive: true });
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
}
for (let i = 0; i < runs; i++) {
  if (session) await session.post('Profiler.start');
  const f0 = process.resourceUsage().minorPageFault;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const code = await main(positionals, BUILTIN_CONTRIBUTIONS);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const faults = process.resourceUsage().minorPageFault - f0;
  if (session && values.profile) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(values.profile, `run${i}.cpuprofile`), JSON.stringify(profile));
  }
  console.log(
    `run ${i}: exit ${code}, CPU ${((c.user + c.system) / 1000).toFixed(0)} ms (user ${(c.user / 1000).toFixed(0)}, system ${(c.system / 1000).toFixed(0)}), wall ${wall.toFixed(0)} ms, minor faults ${faults}`,
  );
}
const probe = faultCost();
console.log(
  `page fault: ${probe.usPerFault.toFixed(1)} us CPU each (${probe.faults} faults on 32 MiB of fresh memory)`,
);
