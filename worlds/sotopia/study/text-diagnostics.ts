import { join } from 'node:path';
import {
  ALIENNESS_RULES,
  type AliennessReport,
  alienness,
  distinctN,
  type Turn,
  transcriptFromLog,
} from '../../../src/index.ts';
import type { Mode } from '../views.ts';
import type { EpisodeResult } from './report.ts';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The text diagnostics of one mode's episodes (docs/VALIDITY.md, "Diagnostics"): alienness, rounded, and distinct-n. */
export interface ModeTextDiagnostics extends Omit<AliennessReport, 'rules'> {
  mode: Mode;
  episodes: number;
  distinct1: number;
  distinct2: number;
}

/** The card's text diagnostics: per mode, and the rules they follow. */
export interface StudyTextDiagnostics {
  source: string;
  rules: Record<string, string>;
  modes: ModeTextDiagnostics[];
}

/**
 * The alienness and free-text diversity of a study's episodes, per mode, read from each
 * episode's log (its last attempt) as `grapevine report` reads a log: the turns are the
 * logged messages with a text (`transcriptFromLog`). Alienness takes each episode as its own
 * transcript (repetition of a partner counts within an episode only); distinct-1/2 pool the
 * mode's turns. Values rounded to 3 decimals; modes in the order given.
 */
export async function studyTextDiagnostics(
  dir: string,
  results: readonly EpisodeResult[],
  modes: readonly Mode[],
): Promise<StudyTextDiagnostics> {
  const transcripts = new Map<Mode, Turn[][]>(modes.map((m) => [m, []]));
  for (const r of results)
    transcripts.get(r.episode.mode)?.push(await transcriptFromLog(join(dir, r.log ?? r.episode.log)));
  const out = modes.map((mode) => {
    const episodes = transcripts.get(mode) ?? [];
    const a = alienness(episodes);
    const texts = episodes.flat().map((t) => t.text);
    return {
      mode,
      episodes: episodes.length,
      turns: a.turns,
      wordsPerTurn: round(a.wordsPerTurn),
      selfRepetition: round(a.selfRepetition),
      partnerRepetition: round(a.partnerRepetition),
      aiIdentity: round(a.aiIdentity),
      refusal: round(a.refusal),
      identityConfusion: round(a.identityConfusion),
      politenessPer100Words: round(a.politenessPer100Words),
      distinct1: round(distinctN(texts, 1)),
      distinct2: round(distinctN(texts, 2)),
    };
  });
  return {
    source: "each episode's replay log (messages with a text), as grapevine report reads a log",
    rules: {
      ...ALIENNESS_RULES,
      distinct: 'distinct-n: distinct word n-grams / all word n-grams of the mode’s turns (Li et al. 2016)',
    },
    modes: out,
  };
}

/** The diagnostics as Markdown lines for card.md (a table per mode, then the rules). */
export function renderTextDiagnostics(d: StudyTextDiagnostics): string[] {
  const cols: [keyof ModeTextDiagnostics, string][] = [
    ['episodes', 'episodes'],
    ['turns', 'turns'],
    ['wordsPerTurn', 'words/turn'],
    ['selfRepetition', 'self-rep.'],
    ['partnerRepetition', 'partner rep.'],
    ['aiIdentity', 'AI identity'],
    ['refusal', 'refusal'],
    ['identityConfusion', 'identity conf.'],
    ['politenessPer100Words', 'polite/100w'],
    ['distinct1', 'distinct-1'],
    ['distinct2', 'distinct-2'],
  ];
  return [
    '## Text diagnostics (alienness, diversity)',
    '',
    `From ${d.source}.`,
    '',
    `| mode | ${cols.map(([, h]) => h).join(' | ')} |`,
    `| --- | ${cols.map(() => '---:').join(' | ')} |`,
    ...d.modes.map((m) => `| ${m.mode} | ${cols.map(([k]) => String(m[k])).join(' | ')} |`),
    '',
    ...Object.values(d.rules).map((r) => `- ${r}`),
    '',
  ];
}
