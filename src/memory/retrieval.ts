import { ConfigError, RunError } from '../core/index.ts';
import type { MemoryEntry } from './memory-entry.ts';

/** Weights of the three retrieval components. */
export interface RetrievalWeights {
  recency: number;
  importance: number;
  relevance: number;
}

/** Equal weights, as in generative agents. */
export const DEFAULT_WEIGHTS: Readonly<RetrievalWeights> = { recency: 1, importance: 1, relevance: 1 };

/** Recency decay per tick: a memory 100 ticks old has recency 0.99^100 = 0.37. */
export const DEFAULT_DECAY = 0.99;

/** Options of {@link scoreMemories}. */
export interface ScoreOptions {
  /** The current tick; ages are `now - t` (memories from the future count as age 0). */
  now: number;
  /** Recency decay per tick, in (0, 1]. Default {@link DEFAULT_DECAY}. */
  decay?: number;
  /** Component weights (missing ones take the defaults). */
  weights?: Partial<RetrievalWeights>;
}

/** A memory with its retrieval score and the components the score was made of. */
export interface ScoredMemory {
  entry: MemoryEntry;
  score: number;
  /** `decay ^ age`, in (0, 1]. */
  recency: number;
  /** `importance / 10`, in [0.1, 1]. */
  importance: number;
  /** As given by the relevance scorer, clamped to [0, 1] (non-finite values become 0). */
  relevance: number;
}

/** Ages whose powers {@link recencyOf} keeps per decay. */
const POWER_TABLE = 4096;
/** The last decay asked for, and `decay ** age` for the integer ages seen so far (0 = not yet). */
let tableDecay = Number.NaN;
const powers = new Float64Array(POWER_TABLE);

/**
 * `decay ^ max(0, now - t)`. Integer ages below {@link POWER_TABLE} read the power from a
 * table filled by the same expression (the same double), so a recall over hundreds of
 * memories of a few distinct ages computes each power once instead of once per memory.
 */
export function recencyOf(now: number, t: number, decay: number): number {
  const age = Math.max(0, now - t);
  if (age < POWER_TABLE && Number.isInteger(age)) {
    if (decay !== tableDecay) {
      powers.fill(0);
      tableDecay = decay;
    }
    const hit = powers[age];
    if (hit !== 0) return hit;
    const p = decay ** age;
    powers[age] = p;
    return p;
  }
  return decay ** age;
}

/** Checks a decay factor, returning it. Throws a ConfigError unless 0 < decay <= 1. */
export function checkDecay(decay: number): number {
  if (!(decay > 0 && decay <= 1))
    throw new ConfigError(`memory decay must be in (0, 1], got ${decay}`, { hint: 'e.g. 0.99 per tick' });
  return decay;
}

/** The weights with defaults filled in. Throws a ConfigError on a negative or non-finite weight. */
export function resolveWeights(weights: Partial<RetrievalWeights> = {}): RetrievalWeights {
  const w = { ...DEFAULT_WEIGHTS, ...weights };
  for (const [name, value] of Object.entries(w))
    if (!(Number.isFinite(value) && value >= 0))
      throw new ConfigError(`memory retrieval weight ${name} must be a finite number >= 0, got ${value}`);
  return w;
}

/**
 * The total order of retrieval: higher score first, then higher id (newer) first. Ids are
 * unique within a stream, so no two entries compare equal.
 */
export function compareScored(a: ScoredMemory, b: ScoredMemory): number {
  if (a.score !== b.score) return b.score - a.score;
  return b.entry.id - a.entry.id;
}

/**
 * Scores memories as `wRecency * recency + wImportance * importance / 10 + wRelevance *
 * relevance` and returns them best first (see {@link compareScored}). `relevances[i]` is
 * the relevance of `entries[i]`.
 */
export function scoreMemories(
  entries: readonly MemoryEntry[],
  relevances: readonly number[],
  opts: ScoreOptions,
): ScoredMemory[] {
  if (relevances.length !== entries.length)
    throw new RunError(`got ${relevances.length} relevance scores for ${entries.length} memories`);
  const decay = checkDecay(opts.decay ?? DEFAULT_DECAY);
  const w = resolveWeights(opts.weights);
  const scored = entries.map((entry, i): ScoredMemory => {
    const recency = recencyOf(opts.now, entry.t, decay);
    const importance = entry.importance / 10;
    const r = relevances[i];
    const relevance = Number.isFinite(r) ? Math.min(1, Math.max(0, r)) : 0;
    const score = w.recency * recency + w.importance * importance + w.relevance * relevance;
    return { entry, score, recency, importance, relevance };
  });
  return scored.sort(compareScored);
}

/**
 * The first `k` memories of {@link scoreMemories}' order (same scores, same ties), without
 * building a scored record per memory or sorting the whole stream: scores go into a typed
 * array and a selection keeps the best `k` (cost `n` plus `k` per improvement).
 */
export function topMemories(
  entries: readonly MemoryEntry[],
  relevances: readonly number[],
  k: number,
  opts: ScoreOptions,
): MemoryEntry[] {
  if (relevances.length !== entries.length)
    throw new RunError(`got ${relevances.length} relevance scores for ${entries.length} memories`);
  const decay = checkDecay(opts.decay ?? DEFAULT_DECAY);
  const w = resolveWeights(opts.weights);
  const n = entries.length;
  if (k >= n) return scoreMemories(entries, relevances, opts).map((s) => s.entry);
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const entry = entries[i];
    const r = relevances[i];
    const relevance = Number.isFinite(r) ? Math.min(1, Math.max(0, r)) : 0;
    // The expression of scoreMemories, term by term, so the doubles are the same.
    scores[i] =
      w.recency * recencyOf(opts.now, entry.t, decay) +
      w.importance * (entry.importance / 10) +
      w.relevance * relevance;
  }
  const better = (i: number, j: number): boolean =>
    scores[i] > scores[j] || (scores[i] === scores[j] && entries[i].id > entries[j].id);
  const best: number[] = []; // indices, best first
  for (let i = 0; i < n && k > 0; i++) {
    if (best.length === k && !better(i, best[k - 1])) continue;
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && better(i, best[at - 1])) {
      best[at] = best[at - 1];
      at--;
    }
    best[at] = i;
  }
  return best.map((i) => entries[i]);
}
