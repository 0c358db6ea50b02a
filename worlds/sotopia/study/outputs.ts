import { join } from 'node:path';
import type { SotopiaData } from '../importer.ts';
import { buildCard, renderCardMarkdown, type SimulationCard } from './card.ts';
import type { StudyPlan } from './plan.ts';
import {
  buildReport,
  readEpisodeResults,
  renderReportMarkdown,
  reportJson,
  type StudyReport,
} from './report.ts';
import { renderReportHtml } from './report-html.ts';
import { writeFileAtomic } from './runner.ts';
import { type StudyEmbedding, studyTextDiagnostics } from './text-diagnostics.ts';

/** The files a finished study writes next to its `episodes/`. */
export const STUDY_OUTPUTS = ['report.json', 'report.md', 'report.html', 'card.json', 'card.md'] as const;

/**
 * Reads every episode log of a finished study and writes report.json, report.md,
 * report.html, card.json and card.md into `dir`. Every file is a function of the plan and
 * the logs only (no clock), so a study restarted after an interruption writes the same bytes.
 * With `embedding`, the card's text diagnostics add the embedding distance per mode (its
 * vectors cached in `embedding.store`, so a second call is offline).
 */
export async function writeStudyOutputs(
  dir: string,
  plan: StudyPlan,
  data: SotopiaData,
  embedding?: StudyEmbedding,
): Promise<{ report: StudyReport; card: SimulationCard; files: string[] }> {
  const results = await readEpisodeResults(dir, plan);
  const report = buildReport(plan.config, plan.environments, results);
  const card = buildCard(plan.config, data, plan.environments);
  card.textDiagnostics = await studyTextDiagnostics(dir, results, plan.config.modes, embedding);
  const texts: Record<(typeof STUDY_OUTPUTS)[number], string> = {
    'report.json': reportJson(report),
    'report.md': renderReportMarkdown(report),
    'report.html': renderReportHtml(report),
    'card.json': `${JSON.stringify(card, null, 2)}\n`,
    'card.md': renderCardMarkdown(card),
  };
  const files = STUDY_OUTPUTS.map((f) => join(dir, f));
  for (const f of STUDY_OUTPUTS) writeFileAtomic(join(dir, f), texts[f]);
  return { report, card, files };
}
