import type { Figure } from '../report/index.ts';
import {
  ALIENNESS_RULES,
  alienness,
  distinctN,
  type EmbeddingDistanceCi,
  type Turn,
} from '../validity/index.ts';

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The report's table of text diagnostics of a log's conversation (docs/VALIDITY.md,
 * "Diagnostics"): the alienness rates of its turns and the distinct-1/2 diversity of their
 * texts. `undefined` when the log records no message with a text.
 */
export function textDiagnosticsFigure(
  turns: readonly Turn[],
  embedding?: { model: string; distance: EmbeddingDistanceCi },
): Figure | undefined {
  if (turns.length === 0) return undefined;
  const a = alienness([turns]);
  const texts = turns.map((t) => t.text);
  const rows: [string, number, string][] = [
    ['turns', a.turns, 'send events with a text payload'],
    ['words per turn', round(a.wordsPerTurn), ALIENNESS_RULES.words],
    ['self-repetition', round(a.selfRepetition), ALIENNESS_RULES.selfRepetition],
    ['partner repetition', round(a.partnerRepetition), ALIENNESS_RULES.partnerRepetition],
    ['AI-identity phrases (share of turns)', round(a.aiIdentity), ALIENNESS_RULES.aiIdentity],
    ['refusal phrases (share of turns)', round(a.refusal), ALIENNESS_RULES.refusal],
    ['identity confusion (share of turns)', round(a.identityConfusion), ALIENNESS_RULES.identityConfusion],
    ['politeness markers per 100 words', round(a.politenessPer100Words), ALIENNESS_RULES.politeness],
    ['distinct-1', round(distinctN(texts, 1)), 'distinct words / all words (Li et al. 2016)'],
    ['distinct-2', round(distinctN(texts, 2)), 'distinct word bigrams / all bigrams (Li et al. 2016)'],
  ];
  if (embedding) {
    const d = embedding.distance;
    const ci = `percentile bootstrap over the ${d.clusters} speakers (${d.replicates} resamples; pairs of distinct turns)`;
    rows.push(
      [
        'mean pairwise cosine distance',
        round(d.estimate),
        `1 − cos(u, v) of the turns' embeddings (${embedding.model}), over all pairs of turns`,
      ],
      ['mean pairwise cosine distance, 95% CI low', round(d.lo), ci],
      ['mean pairwise cosine distance, 95% CI high', round(d.hi), ci],
    );
  }
  return {
    id: 'text-diagnostics',
    title: `Text diagnostics: ${a.turns} turns`,
    caption:
      "Alienness and diversity of the log's conversation, all turns taken as one transcript in log order (speakers as grapevine compare's transcriptFromLog finds them); the rules are in src/validity/alienness-rules.ts and docs/VALIDITY.md.",
    table: { columns: ['measure', 'value', 'rule'], rows },
  };
}
