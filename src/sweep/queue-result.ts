import { z } from 'zod';
import { storedLogName } from './log-store.ts';
import { parseQueueJson, SAFE_ID, SHA256_HEX } from './queue-spec.ts';
import type { QueuedResult } from './queue-sweep.ts';

const text = (max: number) => z.string().max(max);
const LOG_REF = z.strictObject({ bucket: z.string().regex(SAFE_ID), name: text(200) });
const COMMON = {
  sweep: z.string().regex(SAFE_ID),
  id: z.string().regex(SAFE_ID),
  index: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  log: LOG_REF.optional(),
  llmSpent: z.strictObject({ tokens: z.number().min(0), costUsd: z.number().min(0) }).optional(),
};
const OUTCOME = z.strictObject({
  ...COMMON,
  digest: z.string().regex(SHA256_HEX),
  ticks: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  reason: text(200),
  metrics: z.record(text(200), z.number()),
  summary: z.record(text(200), z.unknown()),
});
const FAILURE = z.strictObject({
  ...COMMON,
  error: z.strictObject({
    message: text(4000),
    code: text(64).optional(),
    hint: text(2000).optional(),
    exitCode: z.union([z.literal(1), z.literal(2)]).optional(),
  }),
});
const RESULT = z.union([OUTCOME, FAILURE]);

/** What the sweep published for one run: the result must say the same. */
export interface PublishedRun {
  id: string;
  seed: number;
}

/**
 * Checks a result message from the queue against the run the sweep published under its
 * index: well-formed (size, depth, fields, a 64-hex digest), the same sweep, run id and
 * seed, and a stored log, if it names one, under that run's own object name. A reason
 * otherwise; never throws. The log itself is checked once fetched ({@link StoredLogFetcher}).
 */
export function checkQueuedResult(
  data: Uint8Array,
  sweep: string,
  published: ReadonlyMap<number, PublishedRun>,
): { result: QueuedResult } | { reason: string } {
  const json = parseQueueJson(data, 'result');
  if ('reason' in json) return json;
  const parsed = RESULT.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { reason: `the result is malformed: ${issue.path.join('.') || '(top level)'}: ${issue.message}` };
  }
  const r = parsed.data;
  const run = published.get(r.index);
  if (r.sweep !== sweep) return { reason: `the result is for sweep ${r.sweep}, not ${sweep}` };
  if (!run) return { reason: `the result names run index ${r.index}, which this sweep did not publish` };
  if (r.id !== run.id || r.seed !== run.seed)
    return {
      reason: `the result for run ${run.id} (seed ${run.seed}) says run ${r.id} with seed ${r.seed}`,
    };
  if (r.log && r.log.name !== storedLogName(sweep, run.id))
    return { reason: `the result names the stored log ${r.log.name}, not this run's` };
  return { result: r as QueuedResult };
}
