// Fork batches on the worker pool: the same counterfactual batch of a rumour-world parent
// (`fork --at T --replicates R`: R treated + R control children) written with 1 worker
// thread and with 2, through the built CLI (run `npm run build` first), alternated `--pairs`
// times. Prints CPU seconds (user+sys of the fork process, threads included, from
// /usr/bin/time), wall seconds, peak RSS, and the paired ratios 2 threads / 1 thread; checks
// that both batches wrote the same children (digests). On a loaded machine trust CPU and ratios.
//
// The fork tick defaults to 80% of the ticks the parent ran (a rumour run may end early).
//
// With --llm-latency-ms N the parent is a town square of --n residents (default 8, 10
// ticks) run against the shipped local server (`grapevine serve-llm --latency-ms N`, in its
// own process so its CPU is not counted), and the treated children hear the town crier:
// every child's calls after the fork tick go to that server.
//
//   npx tsx bench/studies/fork-batch-pool.ts [--n 10000] [--ticks 100] [--at T] [--replicates 10] [--pairs 3]
//   npx tsx bench/studies/fork-batch-pool.ts --llm-latency-ms 50 --at 7 --replicates 4 --pairs 5
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type ChildLlmServer, startChildLlmServer } from '../tools/child-llm-server.ts';
import { timedCli, type Usage } from '../tools/timed-cli.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string' },
    ticks: { type: 'string' },
    at: { type: 'string' },
    replicates: { type: 'string', default: '10' },
    pairs: { type: 'string', default: '3' },
    'llm-latency-ms': { type: 'string' },
  },
});
const llm = values['llm-latency-ms'] !== undefined;
const n = values.n ?? (llm ? '8' : '10000');
const ticks = values.ticks ?? (llm ? '10' : '100');
const OUT = resolve('bench/out/fork-batch-pool');

const timed = (args: string[], tag: string) => timedCli(OUT, args, tag);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs: number[], d = 2) =>
  `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;

async function main(server: ChildLlmServer | undefined): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const parent = join(OUT, 'parent.ndjson');
  const every = String(Math.max(1, Math.floor(Number(ticks) / (llm ? 2 : 5))));
  const world = llm ? ['town-square', '--set', `agents=${n}`] : ['rumor', '--set', `n=${n}`];
  const endpoint = server ? ['--llm-base-url', server.url] : [];
  const crier = join(OUT, 'crier.yaml');
  writeFileSync(
    crier,
    'type: message\nto: { channel: square }\nkind: say\npayload: { text: "Free bread at the mill today." }\n',
  );
  const intervene = llm ? ['--intervene', crier, ...endpoint] : [];
  const parentArgs = ['run', ...world, '--seed', '3', '--ticks', ticks, ...endpoint];
  const rerun = await timed([...parentArgs, '--snapshot-every', every, '--out', parent, '--json'], 'parent');
  const at = values.at ?? String(Math.floor(0.8 * (JSON.parse(rerun.stdout) as { ticks: number }).ticks));
  const byWorkers: Record<string, Usage[]> = { '1': [], '2': [] };
  const digests: Record<string, string> = {};
  for (let k = 0; k < Number(values.pairs); k++) {
    for (const w of k % 2 === 0 ? ['1', '2'] : ['2', '1']) {
      const out = join(OUT, `w${w}-${k}`);
      const u = await timed(
        ['fork', parent, '--at', at, '--replicates', values.replicates!, ...intervene].concat([
          '--workers',
          w,
          '--out',
          out,
          '--json',
        ]),
        `w${w}-${k}`,
      );
      const children = (JSON.parse(u.stdout) as { children: { digest: string }[] }).children;
      const key = children.map((c) => c.digest).join(',');
      if (digests[w] !== undefined && digests[w] !== key) throw new Error(`batch ${w} gave other digests`);
      digests[w] = key;
      byWorkers[w].push(u);
      rmSync(out, { recursive: true, force: true });
    }
  }
  if (digests['1'] !== digests['2']) throw new Error('1 and 2 threads wrote different children');
  const children = 2 * Number(values.replicates);
  const [one, two] = [byWorkers['1'], byWorkers['2']];
  const ratio = (f: (u: Usage) => number) => one.map((u, k) => f(two[k]) / f(u));
  const rows = [
    `| fork batch (${llm ? `town square, ${n} residents, local server at ${values['llm-latency-ms']} ms` : `rumour world, n=${n}`}, ${ticks} ticks, fork at ${at}, ${children} children, ${values.pairs} pairs) | 1 thread | 2 threads | 2 / 1 (paired) |`,
    '|---|--:|--:|--:|',
    `| wall s, median (min–max) | ${fmt(one.map((u) => u.wall))} | ${fmt(two.map((u) => u.wall))} | ${fmt(
      ratio((u) => u.wall),
      3,
    )} |`,
    `| CPU s (user+sys) | ${fmt(one.map((u) => u.cpu))} | ${fmt(two.map((u) => u.cpu))} | ${fmt(
      ratio((u) => u.cpu),
      3,
    )} |`,
    `| peak RSS MB | ${fmt(
      one.map((u) => u.rssMb),
      0,
    )} | ${fmt(
      two.map((u) => u.rssMb),
      0,
    )} | ${fmt(
      ratio((u) => u.rssMb),
      3,
    )} |`,
    `| one rerun of the parent (wall s; CPU s) | ${rerun.wall.toFixed(2)}; ${rerun.cpu.toFixed(2)} | | |`,
    '| children equal (digests) for 1 and 2 threads | yes | | |',
  ];
  process.stdout.write(`${rows.join('\n')}\n`);
}

const server = llm ? await startChildLlmServer(Number(values['llm-latency-ms'])) : undefined;
try {
  await main(server);
} finally {
  await server?.stop();
}
