/**
 * In one process, a warm delta fork at tick 450 of the fork-100k parent against a rerun of
 * the same run from tick 0 (as step 3 of bench/fork-100k.ts, without the standalone fork):
 * each round forks once unmeasured, then once measured, then reruns; prints the medians and
 * the per-round fork / rerun CPU ratios. `--root DIR` loads grapevine from another checkout
 * (with its node_modules), so that two versions can be run in turn on the same parent:
 *
 *   npx tsx bench/fork-100k.ts --repeat 1 --no-cli        # writes the parent once
 *   for i in 1 2 3; do (cd OLD && npx tsx $NEW/bench/studies/fork-warm.ts --root OLD); npx tsx bench/studies/fork-warm.ts; done
 *
 * [--parent bench/out/fork-100k-parent.ndjson] [--rounds 6]. Every fork and rerun must give
 * the parent's digest.
 */
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    root: { type: 'string', default: join(HERE, '..', '..') },
    parent: { type: 'string', default: join(HERE, '..', 'out', 'fork-100k-parent.ndjson') },
    rounds: { type: 'string', default: '6' },
  },
});
const root = resolve(values.root);
const parent = resolve(values.parent);
const replay = await import(join(root, 'src/replay/index.ts'));
const { runWorld } = await import(join(root, 'src/world/index.ts'));
const { world } = await import(join(root, 'worlds/rumor/index.ts'));
const opts = replay.recordedRunOptions(await replay.readHeader(parent));
const out = join(HERE, '..', 'out', `fork-warm-${process.pid}`);
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

async function fork(): Promise<string> {
  rmSync(`${out}-child.ndjson`, { force: true });
  const recorded = await replay.readRecordedRun(parent, { restoreTicks: [450] });
  const r = await replay.continueRun({
    def: world,
    recorded,
    path: parent,
    atTick: 450,
    out: `${out}-child.ndjson`,
    layout: 'delta',
    ownsRecorded: true,
  });
  if (r.digest !== recorded.digest) throw new Error(`fork digest ${r.digest} != ${recorded.digest}`);
  return r.digest;
}

async function rerun(): Promise<string> {
  rmSync(`${out}-rerun.ndjson`, { force: true });
  const r = await runWorld(world, {
    ...opts,
    openLog: (h: Record<string, unknown>) =>
      replay.LogWriter.create(`${out}-rerun.ndjson`, h, { index: true }),
  });
  return r.digest;
}

const forks: number[] = [];
const reruns: number[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  await fork();
  let c = cpuMs();
  const d = await fork();
  forks.push(cpuMs() - c);
  c = cpuMs();
  if ((await rerun()) !== d) throw new Error('the rerun digest differs from the parent');
  reruns.push(cpuMs() - c);
}
for (const f of ['child.ndjson', 'rerun.ndjson', 'rerun.ndjson.verified'])
  rmSync(`${out}-${f}`, { force: true });
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
const ratios = forks.map((f, k) => f / reruns[k]);
process.stdout.write(
  `${root}: warm fork ${median(forks).toFixed(0)} ms CPU, rerun ${median(reruns).toFixed(0)} ms; fork / rerun median ${median(ratios).toFixed(3)} (rounds ${ratios.map((x) => x.toFixed(3)).join(', ')})\n`,
);
