import { statSync } from 'node:fs';
import { formatNumber, UsageError } from '../../core/index.ts';
import { diffRuns, readDiffSide } from '../../metrics/index.ts';

/** Options of `grapevine diff`. */
export interface DiffCommandOptions {
  json?: boolean;
  /** A batch directory: show the unpaired (Welch) interval beside the paired ones. */
  welch?: boolean;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

const num = (x: number | null) => (x === null ? '(none)' : formatNumber(x));

/** `grapevine diff <logA> <logB>` or `grapevine diff <batch-dir>`. */
export async function diffCommand(
  a: string,
  b: string | undefined,
  opts: DiffCommandOptions,
): Promise<number> {
  if (b === undefined) {
    if (!isDir(a)) throw new UsageError('diff needs two logs, or one directory written by fork --replicates');
    return (await import('./diff/diff-batch.ts')).diffBatch(a, opts);
  }
  const d = diffRuns(await readDiffSide(a), await readDiffSide(b));
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ a, b, ...d })}\n`);
    return 0;
  }
  if (d.identical) {
    process.stdout.write('the two runs are identical (wall-clock fields aside)\n');
    return 0;
  }
  const fd = d.first!;
  process.stdout.write(
    fd.seq === 0
      ? `the headers differ in: ${fd.a?.fields.join(', ')}\n`
      : `first difference at seq ${fd.seq} (tick ${fd.tick}): A ${fd.a ? fd.a.type : '(ends)'}, B ${fd.b ? fd.b.type : '(ends)'}${fd.a && fd.b && fd.a.type === fd.b.type ? `, differing fields: ${fd.a.fields.join(', ')}` : ''}\n`,
  );
  process.stdout.write('final metrics (A, B, B-A, first tick differing):\n');
  for (const [k, m] of Object.entries(d.metrics))
    if (m.firstTick !== null)
      process.stdout.write(`  ${k.padEnd(24)} ${num(m.a)} ${num(m.b)} ${num(m.delta)} t=${m.firstTick}\n`);
  if (d.agents)
    process.stdout.write(
      `${d.agents.differing} agents end in a different state or memory${
        d.agents.sample.length
          ? `, e.g. ${d.agents.sample
              .slice(0, 5)
              .map(
                (s) =>
                  `${s.agent} (${Object.keys(s.a)
                    .map((k) => `${k}: ${s.a[k]} -> ${s.b[k]}`)
                    .join(', ')})`,
              )
              .join('; ')}`
          : ''
      }\n`,
    );
  return 0;
}
