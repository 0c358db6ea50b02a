import { z } from 'zod';
import type { Json } from '../../src/index.ts';
import { parseJsonLenient } from '../../src/public/llm.ts';
import { DIMENSION_NAMES, DIMENSIONS, type Dimension } from './dimensions.ts';

function dimension(d: Dimension) {
  const { min, max } = DIMENSIONS[d];
  return z.object({ reasoning: z.string().min(1), score: z.number().int().min(min).max(max) });
}

const agentEvaluation = z.object(
  Object.fromEntries(DIMENSION_NAMES.map((d) => [d, dimension(d)])) as {
    [D in Dimension]: ReturnType<typeof dimension>;
  },
);

/**
 * The judge's reply under grapevine-v0 and the `grapevine` contract, and the shape every
 * contract's reading gives: per character (`agent0`, `agent1` = seats 0 and 1), per
 * dimension, a reasoning and an integer score within the dimension's range. Anything else
 * (a missing dimension, a score out of range, a float, a string) fails validation.
 */
export const judgeReplySchema = z.object({ agent0: agentEvaluation, agent1: agentEvaluation });

/** A valid judge reply. */
export type JudgeReply = z.infer<typeof judgeReplySchema>;

/** One character's scores as the run summary has them. */
export type AgentScores = { [D in Dimension]: number } & {
  /** Unweighted mean of the seven dimensions. */
  overall: number;
  reasoning: { [D in Dimension]: string };
};

/** Both characters' scores: `agent0`, `agent1`. */
export type EpisodeScores = { agent0: AgentScores; agent1: AgentScores };

/** What the judge step records (in the environment's memory and the run summary). */
export type JudgeOutcome = {
  /** The judge's model name. */
  model: string;
  /** True when no valid reply came: `scores` is then null. */
  fallback: boolean;
  /** Why replies were rejected (one entry per rejected reply or failed call). */
  errors: string[];
  scores: EpisodeScores | null;
  /** zhou2024: judgements asked (1 = the first one held). */
  attempts?: number;
};

/** Validates a judge reply text (lenient JSON, then {@link judgeReplySchema}). */
export function parseJudgeReply(
  text: string,
): { ok: true; value: JudgeReply } | { ok: false; error: string } {
  const json = parseJsonLenient(text);
  if (!json.ok) return { ok: false, error: `not JSON: ${json.error}` };
  const r = judgeReplySchema.safeParse(json.value);
  if (r.success) return { ok: true, value: r.data };
  const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, error: issues.join('; ') };
}

/** A valid reply as summary scores, with `overall` the unweighted mean. */
export function toScores(reply: JudgeReply): EpisodeScores {
  const one = (e: JudgeReply['agent0']): AgentScores => {
    const out = { reasoning: {} } as AgentScores;
    let sum = 0;
    for (const d of DIMENSION_NAMES) {
      out[d] = e[d].score;
      out.reasoning[d] = e[d].reasoning;
      sum += e[d].score;
    }
    out.overall = sum / DIMENSION_NAMES.length;
    return out;
  };
  return { agent0: one(reply.agent0), agent1: one(reply.agent1) };
}

/** A judge outcome as JSON (for memory and the summary). */
export function outcomeJson(o: JudgeOutcome): Json {
  return o as unknown as Json;
}
