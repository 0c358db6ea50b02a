import { closeSync, openSync, readSync } from 'node:fs';
import { checkBatchSize, UsageError } from '../../core/index.ts';
// The validity files are imported one by one, and the replay reader only for a log: the
// module index would load the log reader and the message bus (rxjs) on every start-up.
import type { SurveyAnswer } from '../../validity/answers.ts';
import { type CompareReport, compareAnswers } from '../../validity/compare-answers.ts';
import { readAnswersFile } from '../../validity/read-answers.ts';
import { readHumanFile } from '../../validity/read-human.ts';
import { formatScore, renderCompareHtml } from '../../validity/render-compare-html.ts';
import type { CliContribution } from '../cli-contribution.ts';
import { type CommandOutput, PROCESS_OUTPUT } from '../command-output.ts';
import { intFlag, positiveIntFlag } from '../flags.ts';
import { checkOutputFile, writeOutputText } from '../output-file.ts';

/** Options of `grapevine compare`. */
export interface CompareCommandOptions {
  human?: string;
  out?: string;
  json?: boolean;
  seed?: string;
  replicates?: string;
  /** Replace an existing --out file. */
  force?: boolean;
  phase?: string;
}

const PHASES = ['initial', 'discussion', 'pushback'];

/** True when the file starts like a grapevine replay log (gzip, or a header line). */
function looksLikeLog(path: string): boolean {
  if (path.endsWith('.gz')) return true;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  const buf = Buffer.alloc(4096);
  const n = readSync(fd, buf, 0, buf.length, 0);
  closeSync(fd);
  return buf.subarray(0, n).toString('utf8').split('\n')[0].includes('"format":"grapevine-log/');
}

async function answersFromLog(
  path: string,
  contributions: readonly CliContribution[],
): Promise<SurveyAnswer[]> {
  const { readHeader } = await import('../../replay/index.ts');
  const header = await readHeader(path);
  const world = (header.world as { id?: string } | undefined)?.id ?? '?';
  const load = contributions.find((c) => c.answerSources?.[world])?.answerSources?.[world];
  if (!load)
    throw new UsageError(`${path}: the world "${world}" records no survey answers that compare can read`, {
      hint: 'compare a survey run, or an answers file (CSV/NDJSON, see docs/VALIDITY.md)',
    });
  return [...(await (await load())(path))];
}

function printTable(r: CompareReport, out: CommandOutput): void {
  out.out(
    'item                 group                n sim  n hum  TV [95% CI]            JS bits [95% CI]       W1 [95% CI]\n',
  );
  for (const row of r.rows)
    out.out(
      `${row.item.padEnd(20)} ${row.group.padEnd(20)} ${String(row.nSim).padStart(5)}  ${String(Math.round(row.nHuman)).padStart(5)}  ${formatScore(row.tv).padEnd(22)} ${formatScore(row.js).padEnd(22)} ${formatScore(row.w1)}\n`,
    );
  const o = r.overall;
  out.out(
    `overall: TV ${o.tv.toFixed(3)} (${(100 * o.tvAttainable).toFixed(1)}% of attainable), JS ${o.js.toFixed(3)} bits (${(100 * o.jsAttainable).toFixed(1)}% of attainable)${Number.isFinite(o.w1) ? `, W1 ${o.w1.toFixed(3)}` : ''}\n`,
  );
  if (r.missing.length) out.out(`no simulated answers for: ${r.missing.join(', ')}\n`);
}

/**
 * `grapevine compare <answers|log> --human FILE`: distances between simulated answers and
 * human reference distributions, per item and group (docs/VALIDITY.md). Bad files exit 2
 * naming file:line, before anything is written.
 */
export async function compareCommand(
  input: string,
  opts: CompareCommandOptions,
  contributions: readonly CliContribution[] = [],
  out: CommandOutput = PROCESS_OUTPUT,
): Promise<number> {
  if (!opts.human)
    throw new UsageError('compare needs --human FILE', {
      hint: 'e.g. --human data/human/dictator-giving-taking.csv',
    });
  if (opts.phase !== undefined && !PHASES.includes(opts.phase))
    throw new UsageError(`--phase must be one of ${PHASES.join(', ')}, got "${opts.phase}"`);
  if (opts.out) checkOutputFile(opts.out, opts.force);
  const seed = intFlag('seed', opts.seed) ?? 1;
  const replicates = positiveIntFlag('replicates', opts.replicates) ?? 1000;
  checkBatchSize({
    count: replicates,
    what: 'bootstrap resamples',
    from: `--replicates ${replicates}`,
    max: 1_000_000,
    bytesEach: 64,
    hint: 'give --replicates 1000 to 10000 (the default is 1000)',
  });
  const human = readHumanFile(opts.human);
  const answers = looksLikeLog(input) ? await answersFromLog(input, contributions) : readAnswersFile(input);
  const phase = opts.phase as SurveyAnswer['phase'] | undefined;
  const report = compareAnswers(answers, human, { seed, replicates, ...(phase ? { phase } : {}) });
  if (report.rows.length === 0)
    throw new UsageError(`no answer in ${input} matches an item and group of ${opts.human}`, {
      hint: 'item ids and group attributes must be spelled alike in both files; check --phase',
    });
  if (opts.out)
    await writeOutputText(
      opts.out,
      renderCompareHtml(report, `compare ${input} with ${opts.human}`),
      opts.force,
    );
  if (opts.json) out.out(`${JSON.stringify(report)}\n`);
  else {
    printTable(report, out);
    if (opts.out) out.out(`report: ${opts.out}\n`);
  }
  return 0;
}
