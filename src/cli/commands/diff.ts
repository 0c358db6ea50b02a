import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../core/index.ts';
import { diffRuns, meanDifference, readDiffSide, sampleStats } from '../../metrics/index.ts';

/** Options of `grapevine diff`. */
export interface DiffCommandOptions {
  json?: boolean;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function logsIn(dir: string, prefix: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && /\.ndjson(\.gz)?$/.test(f))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((f) => join(dir, f));
}

async function finalMetrics(paths: string[]): Promise<Record<string, number>[]> {
  const out: Record<string, number>[] = [];
  for (const p of paths) {
    const side = await readDiffSide(p);
    out.push(side.metrics.get(Math.max(...side.metrics.keys())) ?? {});
  }
  return out;
}

/** Compares the treated and control children of a `fork --replicates` directory. */
async function diffBatch(dir: string, opts: DiffCommandOptions): Promise<number> {
  const treated = await finalMetrics(logsIn(dir, 'treated-'));
  const control = await finalMetrics(logsIn(dir, 'control-'));
  if (treated.length === 0 || control.length === 0)
    throw new UsageError(`${dir} holds no treated-*/control-* logs`, {
      hint: 'make one with: grapevine fork <log> --at T --intervene x.yaml --replicates 20 --out DIR',
    });
  const keys = [...new Set([...Object.keys(treated[0]), ...Object.keys(control[0])])].sort();
  const rows = keys.map((k) => {
    const t = treated.map((m) => m[k] ?? 0);
    const c = control.map((m) => m[k] ?? 0);
    return { metric: k, control: sampleStats(c), treated: sampleStats(t), effect: meanDifference(c, t) };
  });
  if (opts.json)
    process.stdout.write(
      `${JSON.stringify({ dir, replicates: Math.min(treated.length, control.length), metrics: rows })}\n`,
    );
  else {
    process.stdout.write(
      `${dir}: ${treated.length} treated vs ${control.length} control runs, final values (mean, 95% CI)\n`,
    );
    const f = (x: number) => (Math.abs(x) >= 1000 ? x.toFixed(0) : x.toPrecision(4));
    for (const r of rows)
      process.stdout.write(
        `  ${r.metric.padEnd(24)} control ${f(r.control.mean)}  treated ${f(r.treated.mean)}  effect ${f(r.effect.mean)} [${f(r.effect.ci95[0])}, ${f(r.effect.ci95[1])}]\n`,
      );
  }
  return 0;
}

/** `grapevine diff <logA> <logB>` or `grapevine diff <batch-dir>`. */
export async function diffCommand(
  a: string,
  b: string | undefined,
  opts: DiffCommandOptions,
): Promise<number> {
  if (b === undefined) {
    if (!isDir(a)) throw new UsageError('diff needs two logs, or one directory written by fork --replicates');
    return diffBatch(a, opts);
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
      process.stdout.write(`  ${k.padEnd(24)} ${m.a} ${m.b} ${m.delta} t=${m.firstTick}\n`);
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
