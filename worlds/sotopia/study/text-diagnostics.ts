import { join } from 'node:path';
import {
  ALIENNESS_RULES,
  type AliennessReport,
  alienness,
  distinctN,
  type EmbeddingConfig,
  embedTexts,
  meanPairwiseCosineDistanceCi,
  type Turn,
  transcriptFromLog,
} from '../../../src/public/analysis.ts';
import type { Mode } from '../views.ts';
import type { EpisodeResult } from './report-rows.ts';

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The text diagnostics of one mode's episodes (docs/VALIDITY.md, "Diagnostics"): alienness, rounded, and distinct-n. */
export interface ModeTextDiagnostics extends Omit<AliennessReport, 'rules'> {
  mode: Mode;
  episodes: number;
  distinct1: number;
  distinct2: number;
  /** Mean pairwise cosine distance of the mode's turns with its 95% CI (episodes resampled), when an embedding model is configured. */
  embeddingDistance?: { estimate: number; lo: number; hi: number };
}

/** The card's text diagnostics: per mode, and the rules they follow. */
export interface StudyTextDiagnostics {
  source: string;
  rules: Record<string, string>;
  modes: ModeTextDiagnostics[];
  /** The embedding model behind `embeddingDistance`, when one was configured. */
  embeddingModel?: string;
}

/** Where a study's texts are embedded: the endpoint, and the cache file (a second call is offline). */
export interface StudyEmbedding {
  config: EmbeddingConfig;
  /** Embeddings file (src/validity/text-embeddings.ts); `<dir>/embeddings.json` by default. */
  store: string;
}

/** Bootstrap resamples of the embedding distance CI. */
const EMBEDDING_REPLICATES = 1000;

/** The mean pairwise cosine distance of a mode's turns, CI by resampling episodes; undefined under two turns. */
async function modeEmbeddingDistance(
  mode: Mode,
  episodes: readonly Turn[][],
  embedding: StudyEmbedding,
): Promise<ModeTextDiagnostics['embeddingDistance']> {
  const turns = episodes.flatMap((e, k) => e.map((t) => ({ text: t.text, episode: String(k) })));
  if (turns.length < 2) return undefined;
  const vectors = await embedTexts(
    turns.map((t) => t.text),
    embedding.config,
    embedding.store,
  );
  const ci = meanPairwiseCosineDistanceCi(vectors, {
    clusters: turns.map((t) => t.episode),
    replicates: EMBEDDING_REPLICATES,
    seed: `study/${mode}`,
  });
  return { estimate: round(ci.estimate), lo: round(ci.lo), hi: round(ci.hi) };
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
  embedding?: StudyEmbedding,
): Promise<StudyTextDiagnostics> {
  const transcripts = new Map<Mode, Turn[][]>(modes.map((m) => [m, []]));
  for (const r of results)
    transcripts.get(r.episode.mode)?.push(await transcriptFromLog(join(dir, r.log ?? r.episode.log)));
  const out: ModeTextDiagnostics[] = modes.map((mode) => {
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
  if (embedding)
    for (const m of out) {
      const d = await modeEmbeddingDistance(m.mode, transcripts.get(m.mode) ?? [], embedding);
      if (d) m.embeddingDistance = d;
    }
  return {
    source: "each episode's replay log (messages with a text), as grapevine report reads a log",
    rules: {
      ...ALIENNESS_RULES,
      distinct: 'distinct-n: distinct word n-grams / all word n-grams of the mode’s turns (Li et al. 2016)',
      ...(embedding
        ? {
            embedding: `embedding distance: mean of 1 − cos(u, v) over all pairs of the mode’s turns, embedded by ${embedding.config.model}; 95% CI: percentile bootstrap resampling episodes (${EMBEDDING_REPLICATES} resamples, pairs of distinct turns)`,
          }
        : {}),
    },
    modes: out,
    ...(embedding ? { embeddingModel: embedding.config.model } : {}),
  };
}

function embeddingCell(m: ModeTextDiagnostics): string {
  const e = m.embeddingDistance;
  return e ? `${e.estimate} [${e.lo}, ${e.hi}]` : '–';
}

/** The diagnostics as Markdown lines for card.md (a table per mode, then the rules). */
export function renderTextDiagnostics(d: StudyTextDiagnostics): string[] {
  const emb = d.embeddingModel !== undefined;
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
    `| mode | ${cols.map(([, h]) => h).join(' | ')}${emb ? ' | embedding dist. [95% CI]' : ''} |`,
    `| --- | ${cols.map(() => '---:').join(' | ')}${emb ? ' | ---:' : ''} |`,
    ...d.modes.map(
      (m) =>
        `| ${m.mode} | ${cols.map(([k]) => String(m[k])).join(' | ')}${emb ? ` | ${embeddingCell(m)}` : ''} |`,
    ),
    '',
    ...Object.values(d.rules).map((r) => `- ${r}`),
    '',
  ];
}
