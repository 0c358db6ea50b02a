import { z } from '../../src/index.ts';
import { parseJsonLenient } from '../../src/public/llm.ts';

/** What a reply to one question must hold: the item's kind, option ids, bounds, the elicitation. */
export interface ReplySpec {
  kind: 'choice' | 'likert' | 'numeric';
  /** Option ids in canonical order (empty for numeric items). */
  options: string[];
  min?: number;
  max?: number;
  elicitation: 'sample' | 'distribution';
}

/** A validated answer: the option id or number, and the normalised distribution when elicited. */
export interface ReadAnswer {
  answer: string | number;
  distribution?: Record<string, number>;
}

/** Shape of the model's JSON reply for `spec` (zod; also sent as JSON Schema). */
export function replySchema(
  spec: ReplySpec,
): z.ZodType<{ answer?: string | number; distribution?: Record<string, number> }> {
  if (spec.kind === 'numeric') {
    let n = z.number();
    if (spec.min !== undefined) n = n.min(spec.min);
    if (spec.max !== undefined) n = n.max(spec.max);
    return z.object({ answer: n });
  }
  const ids = spec.options as [string, ...string[]];
  if (spec.elicitation === 'sample') return z.object({ answer: z.enum(ids) });
  const distribution = z.object({
    distribution: z
      .partialRecord(z.enum(ids), z.number().min(0).max(1))
      .refine(
        (d) => Object.values(d).reduce((s: number, p) => s + (p ?? 0), 0) > 0,
        'the probabilities sum to 0',
      ),
  });
  // Options left out have probability 0: answerOf reads them as such.
  return distribution as unknown as z.ZodType<{ distribution: Record<string, number> }>;
}

/**
 * The answer a validated reply gives: for a distribution, the probabilities normalised to
 * sum 1 (missing options are 0) and, as the answer, the most probable option (on a tie, the
 * smallest id in string order, so the answer does not depend on the order options were shown in).
 */
export function answerOf(
  spec: ReplySpec,
  value: { answer?: string | number; distribution?: Record<string, number> },
): ReadAnswer {
  if (!value.distribution) return { answer: value.answer as string | number };
  const total = spec.options.reduce((s, id) => s + (value.distribution?.[id] ?? 0), 0);
  const distribution: Record<string, number> = {};
  let best = spec.options[0];
  for (const id of spec.options) {
    distribution[id] = (value.distribution[id] ?? 0) / total;
    const p = distribution[id];
    if (p > distribution[best] || (p === distribution[best] && id < best)) best = id;
  }
  return { answer: best, distribution };
}

/** Reads a reply text against `spec`: the answer, or null when it is not a valid reply. */
export function readReply(spec: ReplySpec, text: string): ReadAnswer | null {
  const parsed = parseJsonLenient(text);
  if (!parsed.ok) return null;
  const checked = replySchema(spec).safeParse(parsed.value);
  return checked.success ? answerOf(spec, checked.data) : null;
}
