/**
 * Where the time of ONE fork goes in a fresh process, phase by phase (CPU ms of this process,
 * user + system, all threads: V8's background compilation and GC count), and the same phases of
 * a rerun from tick 0 in a fresh process. Run each several times, alternating, since one fresh
 * process is one sample:
 *
 *   npx tsx bench/fork-100k.ts --repeat 1 --no-cli      # writes the parent once
 *   for i in 1 2 3; do npx tsx bench/studies/fork-phases.ts fork; npx tsx bench/studies/fork-phases.ts rerun; done
 *
 * [--parent bench/out/fork-100k-parent.ndjson] [--at 450] [--repeat 1]. `--repeat N` forks N
 * times in the one process, a row each (the first cold, the later ones on the JIT's code of
 * the forks before: what the cold rows pay for warm-up). Module loading (tsx here, the
 * bundle through the CLI) is before the first phase and not counted. Phases: read the parent
 * (readRecordedRun; the rerun reads only its header), build the world (network, executor),
 * restore the snapshot, the first tick, the ticks up to the last but one (the rerun's cut
 * after tick `at + 1`, so that its ticks `at + 2..` compare with the fork's), the last tick
 * with its periodic snapshot, the final snapshot and close. Checks the digest against the parent's.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  continueRun,
  LogWriter,
  readHeader,
  readRecordedRun,
  recordedRunOptions,
} from '../../src/replay/index.ts';
import { runWorld } from '../../src/world/index.ts';
import { world } from '../../worlds/rumor/index.ts';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'out');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    parent: { type: 'string', default: join(OUT, 'fork-100k-parent.ndjson') },
    at: { type: 'string', default: '450' },
    repeat: { type: 'string', default: '1' },
  },
});
const mode = positionals[0] ?? 'fork';
if (mode !== 'fork' && mode !== 'rerun') throw new Error(`mode must be fork or rerun, got ${mode}`);
const def = world;
const at = Number(values.at);

const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
for (let round = 1; round <= Number(values.repeat); round++) {
  const marks: [string, number][] = [['', cpuMs()]];
  const mark = (what: string): void => {
    marks.push([what, cpuMs()]);
  };

  const header = await readHeader(values.parent);
  const opts = recordedRunOptions(header as unknown as Record<string, unknown>);
  const last = opts.ticks ?? 0;
  const first = mode === 'fork' ? at + 1 : 1;
  const hooks = {
    onStart: () => mark('build world (network, executor)'),
    onReady: () => mark(mode === 'fork' ? 'restore snapshot' : 'set up tick 0'),
    onTick: (t: number) => {
      if (t === first) mark(`tick ${first}`);
      // the rerun's ticks before the fork's, apart: the same ticks as the fork's next
      else if (mode === 'rerun' && t === at + 1) mark(`ticks ${first + 1}..${at + 1}`);
      else if (t === last - 1) mark(`ticks ${mode === 'rerun' ? at + 2 : first + 1}..${last - 1}`);
      else if (t === last) mark(`tick ${last} and its snapshot`);
    },
  };
  let digest: string;
  if (mode === 'fork') {
    const out = join(OUT, 'fork-phases-child.ndjson');
    rmSync(out, { force: true });
    const recorded = await readRecordedRun(values.parent, { restoreTicks: [at] });
    mark('read parent (readRecordedRun)');
    const parentDigest = recorded.digest;
    digest = (
      await continueRun({
        def,
        recorded,
        path: values.parent,
        atTick: at,
        out,
        layout: 'delta',
        ownsRecorded: true,
        ...hooks,
      })
    ).digest;
    if (digest !== parentDigest) throw new Error(`fork digest ${digest} != parent's ${parentDigest}`);
  } else {
    const out = join(OUT, 'fork-phases-rerun.ndjson');
    rmSync(out, { force: true });
    mark('read parent header');
    digest = (
      await runWorld(def, {
        ...opts,
        openLog: (h) => LogWriter.create(out, h, { index: true }),
        ...hooks,
      })
    ).digest;
  }
  mark('final snapshot, end, close');
  let prev = marks[0][1];
  const row = marks.slice(1).map(([what, c]) => {
    const d = c - prev;
    prev = c;
    return `${what} ${d.toFixed(0)}`;
  });
  process.stdout.write(
    `${mode}${round > 1 ? ` #${round}` : ''}: ${row.join(' | ')} | total ${(prev - marks[0][1]).toFixed(0)} ms CPU\n`,
  );
}
