/**
 * One process, one warm delta fork of the fork-100k parent (written by bench/fork-100k.ts),
 * repeated: the thing to run under `node --cpu-prof` to see where a fork's time goes.
 *
 *   npx tsx bench/fork-100k.ts --repeat 1 --no-cli   # writes the parent once
 *   node --cpu-prof --cpu-prof-dir bench/out/prof --import tsx bench/studies/fork-profile.ts [--at 450] [--repeat 3]
 *   npx tsx bench/tools/cpuprofile-summary.ts bench/out/prof
 *
 * or, with module loading and the first (cold) fork left out of the profile:
 *
 *   npx tsx bench/studies/fork-profile.ts --repeat 6 --profile bench/out/fork-profile.cpuprofile
 *
 * Prints the CPU seconds (user + system) of each fork and checks its digest against the parent's.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { continueRun, readRecordedRun } from '../../src/replay/index.ts';
import { world } from '../../worlds/rumor/index.ts';
import { InspectorProfile } from '../tools/inspector-profile.ts';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'out');
const { values } = parseArgs({
  options: {
    parent: { type: 'string', default: join(OUT, 'fork-100k-parent.ndjson') },
    at: { type: 'string', default: '450' },
    repeat: { type: 'string', default: '3' },
    /** Write a CPU profile of every fork after the first to this file. */
    profile: { type: 'string' },
  },
});
const parent = values.parent;
const at = Number(values.at);
const child = join(OUT, 'fork-profile-child.ndjson');

let profile: InspectorProfile | undefined;
for (let r = 0; r < Number(values.repeat); r++) {
  rmSync(child, { force: true });
  if (r === 1 && values.profile) profile = InspectorProfile.start(200);
  const c0 = process.cpuUsage();
  let first = 0;
  let last = 0;
  const recorded = await readRecordedRun(parent, { restoreTicks: [at] });
  const c1 = process.cpuUsage(c0);
  const result = await continueRun({
    def: world,
    recorded,
    path: parent,
    atTick: at,
    out: child,
    layout: 'delta',
    ownsRecorded: true,
    wall: { fork: { parent, parentDigest: recorded.digest, atTick: at, interventions: 0 } },
    onTick: (t) => {
      const u = process.cpuUsage(c0);
      if (t === at + 1) first = (u.user + u.system) / 1e6;
      last = (u.user + u.system) / 1e6;
    },
  });
  const c = process.cpuUsage(c0);
  if (result.digest !== recorded.digest)
    throw new Error(`fork digest ${result.digest} != ${recorded.digest}`);
  process.stdout.write(
    `fork ${r + 1}: cpu ${((c.user + c.system) / 1e6).toFixed(3)} s (read parent ${((c1.user + c1.system) / 1e6).toFixed(3)} s, to the end of tick ${at + 1} ${first.toFixed(3)} s, to the last tick ${last.toFixed(3)} s)\n`,
  );
}
if (profile && values.profile) profile.stop(values.profile);
