import { formatInterval, formatNumber } from '../../../core/index.ts';
import { batchEffects, type ForkBatch, type OutcomeEffect, readForkBatch } from '../../../metrics/index.ts';
import { FEW_PAIRS_NOTE, reductionText, signFlipText } from '../../../report/index.ts';
import { batchJson, describeBatch } from '../../batch-summary.ts';

/** Options of `grapevine diff DIR`. */
export interface DiffBatchOptions {
  json?: boolean;
  /** Show the unpaired (Welch) interval beside the paired ones. */
  welch?: boolean;
}

/** Columns padded to their widest cell (first column left-aligned, the others right-aligned). */
function textTable(rows: readonly string[][]): string {
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => r[j].length)));
  return rows
    .map((r) => r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '))
    .map((line) => `  ${line.trimEnd()}\n`)
    .join('');
}

function effectRow(e: OutcomeEffect, welch: boolean): string[] {
  const p = e.paired;
  const cells = [
    e.outcome,
    formatNumber(e.control.mean),
    formatNumber(e.treated.mean),
    formatNumber(e.treated.mean - e.control.mean),
  ];
  if (p)
    cells.push(
      formatInterval(p.t.lo, p.t.hi),
      signFlipText(p.signFlip.lo, p.signFlip.hi),
      Number.isFinite(p.correlation) ? formatNumber(p.correlation, 3) : '–',
      reductionText(p.varianceRatio),
    );
  if (welch || !p) cells.push(formatInterval(e.welch.lo, e.welch.hi));
  return cells;
}

/** The text report of `diff DIR`. */
export function batchText(batch: ForkBatch, effects: readonly OutcomeEffect[], welch: boolean): string {
  const varying = effects.filter((e) => e.constant === null);
  const constant = effects.filter((e) => e.constant !== null);
  const pairs = batch.pairs;
  const flips = pairs && varying[0]?.paired?.signFlip;
  const head = ['outcome', 'control', 'treated', 'effect'];
  if (pairs) head.push('paired t 95% CI', 'sign-flip 95% CI', 'r', 'var. reduction');
  if (welch || !pairs) head.push('Welch 95% CI');
  const lines = [
    ...describeBatch(batch).map((l) => `${l}\n`),
    `final values (means; effect = treated − control${flips ? `; sign flips: ${flips.exact ? `all ${flips.flips + 1} enumerated` : `${flips.flips} seeded draws`}` : ''}):\n`,
    varying.length
      ? textTable([head, ...varying.map((e) => effectRow(e, welch))])
      : '  no outcome differs between the children\n',
  ];
  if (constant.length)
    lines.push(
      `  the same in every child: ${constant.map((e) => `${e.outcome} = ${formatNumber(e.constant as number)}`).join(', ')}\n`,
    );
  if (pairs && varying.length)
    lines.push(
      '  r: correlation of the paired outcomes; var. reduction: 1 − var(differences) / (var(control) + var(treated))\n',
    );
  if (varying.some((e) => e.paired && !Number.isFinite(e.paired.signFlip.lo)))
    lines.push(`  ${FEW_PAIRS_NOTE}\n`);
  return lines.join('');
}

/** `grapevine diff DIR`: a fork batch analysed as a paired experiment (or unpaired, saying why). */
export async function diffBatch(dir: string, opts: DiffBatchOptions): Promise<number> {
  const batch = await readForkBatch(dir);
  const effects = batchEffects(batch);
  const welch = Boolean(opts.welch);
  process.stdout.write(
    opts.json ? `${JSON.stringify(batchJson(batch, effects, welch))}\n` : batchText(batch, effects, welch),
  );
  return 0;
}
