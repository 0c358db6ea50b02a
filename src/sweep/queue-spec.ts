import { z } from 'zod';
import { jsonShapeProblem } from '../core/index.ts';
import type { QueuedRun } from './queue-sweep.ts';

/** Most bytes of one spec or result message (a sweep's parameters are small; NATS allows 1 MiB). */
export const MAX_QUEUE_MESSAGE_BYTES = 256 * 1024;

/** Most levels of nesting in a spec's or result's JSON. */
export const MAX_QUEUE_JSON_DEPTH = 32;

/** Most values in one spec's or result's JSON. */
export const MAX_QUEUE_JSON_NODES = 50_000;

/** Sweep and run ids: they become NATS subjects, message ids and file names. */
export const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A sha256 in lower-case hex. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

const QUEUED_RUN = z.strictObject({
  sweep: z.string().regex(SAFE_ID),
  index: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  id: z.string().regex(SAFE_ID),
  world: z.string().min(1).max(4096),
  worldSha256: z.string().regex(SHA256_HEX).optional(),
  params: z.record(z.string(), z.unknown()),
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  ticks: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

/** Which run of which sweep a message is about, when that much of it is well formed. */
export interface RunIdentity {
  sweep: string;
  id: string;
  index: number;
  seed?: number;
}

/** A spec read off the queue: the run, or why it is refused (and which run, when known). */
export type SpecVerdict = { run: QueuedRun } | { reason: string; identity?: RunIdentity };

/**
 * Parses JSON from the queue within its limits: at most {@link MAX_QUEUE_MESSAGE_BYTES},
 * {@link MAX_QUEUE_JSON_DEPTH} levels and {@link MAX_QUEUE_JSON_NODES} values, no
 * prototype keys. A reason when any of that fails; never throws.
 */
export function parseQueueJson(data: Uint8Array, what: string): { value: unknown } | { reason: string } {
  if (data.byteLength > MAX_QUEUE_MESSAGE_BYTES)
    return { reason: `the ${what} is larger than ${MAX_QUEUE_MESSAGE_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    return { reason: `the ${what} is not JSON` };
  }
  const problem = jsonShapeProblem(value, what, {
    maxDepth: MAX_QUEUE_JSON_DEPTH,
    maxNodes: MAX_QUEUE_JSON_NODES,
  });
  return problem ? { reason: `the ${what} is refused: ${problem.message}` } : { value };
}

/** The identity fields of a message that has them well formed (for a failure result). */
export function identityOf(raw: unknown): RunIdentity | undefined {
  const r = raw as Record<string, unknown> | null;
  if (typeof r !== 'object' || r === null) return undefined;
  const { sweep, id, index, seed } = r;
  if (typeof sweep !== 'string' || !SAFE_ID.test(sweep) || typeof id !== 'string' || !SAFE_ID.test(id))
    return undefined;
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) return undefined;
  const okSeed = typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0;
  return { sweep, id, index, ...(okSeed ? { seed } : {}) };
}

/**
 * Reads one run spec off the queue, checked as the CLI checks a run's input: size, depth
 * and prototype keys first (before any schema walks it), then the spec's own schema
 * (unknown fields refused, ids safe for subjects and file names, integers exact).
 */
export function parseQueuedRun(data: Uint8Array): SpecVerdict {
  const json = parseQueueJson(data, 'spec');
  if ('reason' in json) return json;
  const parsed = QUEUED_RUN.safeParse(json.value);
  if (parsed.success) return { run: parsed.data as QueuedRun };
  const issue = parsed.error.issues[0];
  const identity = identityOf(json.value);
  return {
    reason: `the spec is malformed: ${issue.path.join('.') || '(top level)'}: ${issue.message}`,
    ...(identity ? { identity } : {}),
  };
}
