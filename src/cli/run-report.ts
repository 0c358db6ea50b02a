import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isGrapevineError, UsageError } from '../core/index.ts';
import {
  analyzeLog,
  auditFigure,
  communityFigures,
  type Figure,
  type PromptAuditSummary,
  type RunAnalysis,
  renderReportHtml,
  reportCommunities,
  reportFigures,
  reportJson,
} from '../report/index.ts';
import {
  checkEmbeddingFlags,
  type EmbeddingDistanceCi,
  embeddingConfigOf,
  embedTexts,
  meanPairwiseCosineDistanceCi,
  type Turn,
  transcriptFromLog,
} from '../validity/index.ts';
import { batchReport as batchReportPage, forkOverlayFigures } from './batch-report.ts';
import { auditLog } from './commands/audit.ts';
import type { InputFileFlags } from './load-world.ts';
import { worldOfLog } from './log-layout.ts';
import type { LogWorldOptions } from './log-world-options.ts';
import { checkOutputFile, writeOutputText } from './output-file.ts';
import { textDiagnosticsFigure } from './text-diagnostics-figure.ts';

/** Options of `grapevine report`. */
export interface ReportCommandOptions extends LogWorldOptions {
  out?: string;
  json?: boolean;
  quiet?: boolean;
  /** Replace an existing report file. */
  force?: boolean;
  /** `--embedding-model`: embed the log's message texts for the mean pairwise cosine distance. */
  embeddingModel?: string;
  /** `--embedding-base-url`: its OpenAI-compatible endpoint (default OpenAI's). */
  embeddingBaseUrl?: string;
  /** A fork batch: also the unpaired (Welch) interval beside the paired ones. */
  welch?: boolean;
}

/** Where a log's report goes by default: beside the log, `<name>.report.html`. */
export function defaultReportPath(log: string): string {
  return `${log.replace(/\.ndjson(\.gz)?$|\.gz$/, '')}.report.html`;
}

/**
 * `grapevine report <log> [--out report.html] [--json]`: one streaming, verifying pass
 * over the log, then a self-contained HTML report (inline SVG, no network) beside the log
 * or at `--out`; `--json` prints the same figures as JSON on stdout.
 */
export async function reportCommand(path: string, opts: ReportCommandOptions): Promise<number> {
  const isDir = existsSync(path) && statSync(path).isDirectory();
  checkOutputFile(opts.out ?? (isDir ? join(path, 'report.html') : defaultReportPath(path)), opts.force);
  checkEmbeddingFlags(opts.embeddingModel, opts.embeddingBaseUrl);
  if (isDir) return batchReport(path, opts);
  const world = await worldOfLog(path, opts.world, opts);
  const { analysis, finalState } = await analyzeLog(path, world?.layout);
  const figures = reportFigures(analysis, { metrics: world?.metrics, layout: world?.layout });
  const params = (analysis.header.params ?? {}) as Record<string, unknown>;
  const communities = reportCommunities(world?.network, params, Number(analysis.header.seed));
  figures.push(...communityFigures(analysis, finalState, communities));
  if (!analysis.header.llm && opts.embeddingModel !== undefined)
    throw new UsageError(`--embedding-model embeds LLM text, and ${path} has none (a rule world's log)`, {
      hint: 'give --embedding-model with a log of a world whose agents call an LLM, or leave it out',
    });
  if (analysis.header.llm) {
    figures.push(auditFigure(await promptAudit(path, opts.world, opts)));
    const turns = await transcriptFromLog(path);
    const text = textDiagnosticsFigure(turns, await embeddingDistance(path, turns, opts));
    if (text) figures.push(text);
  }
  figures.push(...(await forkOverlayFigures(analysis)));
  return write(analysis, figures, opts.out ?? defaultReportPath(path), opts);
}

/**
 * The mean pairwise cosine distance of the turns' embeddings when `--embedding-model` is set
 * (at least two turns), embedded through `<log>.embeddings.json` so a second report is offline,
 * with a bootstrap 95% CI resampling speakers (1000 resamples, fixed seed).
 */
async function embeddingDistance(
  path: string,
  turns: readonly Turn[],
  opts: ReportCommandOptions,
): Promise<{ model: string; distance: EmbeddingDistanceCi } | undefined> {
  const model = opts.embeddingModel;
  if (model === undefined || turns.length < 2) return undefined;
  const config = embeddingConfigOf(model, opts.embeddingBaseUrl);
  const vectors = await embedTexts(
    turns.map((t) => t.text),
    config,
    `${path}.embeddings.json`,
  );
  const clusters = turns.map((t) => t.speaker);
  return { model, distance: meanPairwiseCosineDistanceCi(vectors, { clusters, seed: 'report' }) };
}

/** `grapevine report <dir>` on a `fork --replicates` directory: the batch as a paired experiment. */
async function batchReport(dir: string, opts: ReportCommandOptions): Promise<number> {
  const out = opts.out ?? join(dir, 'report.html');
  const page = await batchReportPage(dir, { welch: opts.welch });
  await writeOutputText(out, page.html, opts.force);
  if (opts.json) process.stdout.write(`${JSON.stringify(page.json)}\n`);
  else if (!opts.quiet) process.stdout.write(`report ${out} (${page.figures} figures and tables)\n`);
  return 0;
}

async function write(
  analysis: RunAnalysis,
  figures: Figure[],
  out: string,
  opts: ReportCommandOptions,
): Promise<number> {
  await writeOutputText(out, renderReportHtml(analysis, figures), opts.force);
  if (opts.json) process.stdout.write(`${JSON.stringify(reportJson(analysis, figures))}\n`);
  else if (!opts.quiet) process.stdout.write(`report ${out} (${figures.length} figures)\n`);
  return 0;
}

/** The prompt audit of an LLM log for its report; a log that cannot be audited says why. */
async function promptAudit(
  path: string,
  world: string | undefined,
  files: InputFileFlags & { check?: boolean },
): Promise<PromptAuditSummary> {
  try {
    const a = await auditLog(path, world, files, files.check);
    return { prompts: a.prompts, declared: a.declared, observed: a.observed, leaks: a.leaks };
  } catch (err) {
    if (!isGrapevineError(err)) throw err;
    return { prompts: 0, declared: 0, observed: 0, leaks: [], error: err.message };
  }
}
