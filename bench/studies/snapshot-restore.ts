/**
 * The restore snapshot's share of a fork, alone: parsing the snapshot line at `--at` of the
 * fork-100k parent (`parseSnapshotLine`) and decoding its executor columns into arrays of
 * their size (`base64Into`, as the columnar executor's restore does), in CPU ms per round.
 * Each round starts from a fresh copy of the line's bytes (as a fork reads it). Given two
 * or more checkouts, their versions are loaded into one process and alternated round by
 * round (A B A B ...), and the per-round ratios to the first are printed:
 *
 *   npx tsx bench/fork-100k.ts --repeat 1 --no-cli        # writes the parent once
 *   npx tsx bench/studies/snapshot-restore.ts --rounds 41 BEFORE_CHECKOUT .
 *
 * [--parent bench/out/fork-100k-parent.ndjson] [--at 450] [--rounds 41] [CHECKOUT ...]
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    parent: { type: 'string', default: join(HERE, '..', 'out', 'fork-100k-parent.ndjson') },
    at: { type: 'string', default: '450' },
    rounds: { type: 'string', default: '41' },
  },
});
const roots = (positionals.length > 0 ? positionals : [join(HERE, '..', '..')]).map((r) => resolve(r));

/** The bytes of the snapshot line at tick `at` (the periodic one, not split into parts). */
function snapshotLine(path: string, at: number): Buffer {
  const file = readFileSync(path);
  const tail = `"t":${at},"type":"snapshot"`;
  for (let from = 0; from < file.length; ) {
    let nl = file.indexOf(10, from);
    if (nl === -1) nl = file.length;
    const line = file.subarray(from, nl);
    if (line.length > 1 << 20 && line.includes(tail)) return Buffer.from(line);
    from = nl + 1;
  }
  throw new Error(
    `${path} has no snapshot line at tick ${at} of more than 1 MiB: write it with bench/fork-100k.ts`,
  );
}

type Column = Uint8Array | Int32Array | Float64Array;
interface Version {
  root: string;
  parse: (bytes: Buffer) => Record<string, unknown> | undefined;
  into: (text: unknown, target: Column) => boolean;
}

const line = snapshotLine(resolve(values.parent), Number(values.at));
const versions: Version[] = [];
for (const root of roots) {
  const sl = await import(join(root, 'src/replay/snapshot-line.ts'));
  const core = await import(join(root, 'src/core/index.ts'));
  versions.push({ root, parse: sl.parseSnapshotLine, into: core.base64Into });
}
/** The executor columns (regions, then memory slots) of a parsed snapshot line. */
function columnsOf(event: Record<string, unknown> | undefined, root: string): unknown[] {
  const ex = (event?.state as { executor?: { regions: unknown[]; columns: unknown[] } } | undefined)
    ?.executor;
  if (!ex) throw new Error(`${root}: the snapshot line did not parse to a state with an executor`);
  return [...ex.regions, ...ex.columns];
}
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
// one array per column, of its decoded size (the executor's own arrays in a restore)
const targets = columnsOf(versions[0].parse(Buffer.from(line)), versions[0].root).map(
  (c) => new Uint8Array(Buffer.byteLength(String(c), 'base64')),
);
const times = versions.map(() => [] as number[]);
for (let r = 0; r < Number(values.rounds); r++) {
  versions.forEach((v, k) => {
    const bytes = Buffer.allocUnsafe(line.length);
    line.copy(bytes);
    const c = cpuMs();
    columnsOf(v.parse(bytes), v.root).forEach((col, i) => {
      if (!v.into(col, targets[i])) throw new Error(`${v.root}: column ${i} does not fit its array`);
    });
    times[k].push(cpuMs() - c);
  });
}
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
versions.forEach((v, k) => {
  const ratio =
    k === 0
      ? ''
      : `; / first, per round, median ${median(times[k].map((t, i) => t / times[0][i])).toFixed(3)}`;
  process.stdout.write(
    `${v.root}: parse + columns into arrays ${median(times[k]).toFixed(1)} ms CPU (median of ${times[k].length})${ratio}\n`,
  );
});
