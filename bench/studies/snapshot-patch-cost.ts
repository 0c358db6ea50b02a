/**
 * What one snapshot of a delta child costs to write as a patch, the two ways, alternated in
 * one process on the fork-100k parent (its snapshot at `--base` as the base, its snapshot at
 * `--at` as the child's state; written by `npx tsx bench/fork-100k.ts --repeat 1 --no-cli`):
 *
 * - **line**: the full-line way: base64 of every column into strings (the executor's
 *   `exportState`), the full line encoded as bytes and hashed, then diffed (`diffLine`);
 * - **parts**: the columns as `Base64Text`s (`exportStateView`), the line as parts
 *   (`LineEncoder.eventParts`), patched and hashed from them (`snapshotPatch`).
 *
 * Both must give the same patch line. Prints the CPU ms (user + system) of each, medians and
 * the per-round ratio.
 *
 *   npx tsx bench/studies/snapshot-patch-cost.ts [--parent bench/out/fork-100k-parent.ndjson] [--base 450] [--at 500] [--rounds 21]
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Base64Text } from '../../src/core/index.ts';
import { LineEncoder } from '../../src/replay/line-encoder.ts';
import { parseSnapshotLine } from '../../src/replay/snapshot-line.ts';
import { diffLine, patchLineText, snapshotPatch } from '../../src/replay/snapshot-patch.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    parent: { type: 'string', default: join(HERE, '..', 'out', 'fork-100k-parent.ndjson') },
    base: { type: 'string', default: '450' },
    at: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '21' },
  },
});
const file = readFileSync(values.parent);
/** The bytes (without `\n`) of the first `snapshot` line at tick `t`. */
function snapshotLine(t: number): Buffer {
  const mark = Buffer.from(`,"t":${t},"type":"snapshot","h":"`);
  const at = file.indexOf(mark);
  if (at === -1) throw new Error(`${values.parent} has no snapshot at tick ${t}`);
  return file.subarray(file.lastIndexOf(0x0a, at) + 1, file.indexOf(0x0a, at));
}
const base = snapshotLine(Number(values.base));
const state = parseSnapshotLine(Buffer.from(snapshotLine(Number(values.at))))?.state as Record<
  string,
  unknown
>;
const PREV = 'c0ffee'.repeat(10).padEnd(64, '0');
const SEQ = 511;
const T = Number(values.at);

/** The state with its Base64Texts as strings (what `exportState` gave before). */
const asStrings = (v: unknown): unknown =>
  v instanceof Base64Text
    ? v.toString()
    : Array.isArray(v)
      ? v.map(asStrings)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asStrings(x)]))
        : v;

function byLine(): string {
  const encoded = new LineEncoder().encodeEventForWrite(
    'snapshot',
    T,
    SEQ,
    { state: asStrings(state) },
    PREV,
  );
  if (!('bytes' in encoded) || Array.isArray(encoded.bytes))
    throw new Error('expected the line as one buffer');
  const line = encoded.bytes.subarray(0, encoded.bytes.length - 1);
  const patch = diffLine(base, line, line.length * 0.5);
  if (!patch) throw new Error('no patch');
  return patchLineText(SEQ, T, { base: 460, ...patch }, encoded.chain);
}

function byParts(): string {
  const parts = new LineEncoder().eventParts('snapshot', T, SEQ, { state });
  const made = parts && snapshotPatch(base, parts, PREV, 0.5);
  if (!made?.patch) throw new Error('no patch from the parts');
  return patchLineText(SEQ, T, { base: 460, ...made.patch }, made.chain);
}

const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
if (byLine() !== byParts()) throw new Error('the two ways give different patch lines');
const line: number[] = [];
const parts: number[] = [];
for (let r = 0; r < Number(values.rounds); r++) {
  let c = cpuMs();
  byLine();
  line.push(cpuMs() - c);
  c = cpuMs();
  byParts();
  parts.push(cpuMs() - c);
}
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
process.stdout.write(
  `snapshot at ${T} against ${values.base} (${(base.length / 1e6).toFixed(2)} MB line): line ${median(line).toFixed(1)} ms CPU, parts ${median(parts).toFixed(1)} ms; parts / line per round median ${median(parts.map((p, k) => p / line[k])).toFixed(3)}\n`,
);
