import { ConfigError } from '../core/index.ts';
import { derivedOf } from './entry-derived.ts';
import { formatMemory, type MemoryFormatter } from './format-memories.ts';
import type { MemoryEntry } from './memory-entry.ts';

/** The rule of `src/llm-server/tokenizer.ts`: a run of letters and digits, or one other non-space character. */
const TOKEN = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;

/**
 * Deterministic token estimate of `text`, by the same rule as the local LLM server's
 * `countTokens` (`"Hi, Bob!"` is four tokens; within about 1.3x of a BPE count on English).
 * Tokens never span whitespace, so the estimate of lines joined by newlines is the sum of
 * the lines' estimates. Kept here rather than imported so that memory does not load the
 * LLM stack; a test checks the two agree.
 * Hand-written on purpose, not a model's tokenizer: it decides which memories enter a prompt,
 * so it is part of every LLM world's digest, and logs of earlier versions must keep verifying.
 */
export function estimateTokens(text: string): number {
  return text.match(TOKEN)?.length ?? 0;
}

/** Order of memories in a prompt: by tick, then id. */
export function compareChronological(a: MemoryEntry, b: MemoryEntry): number {
  return a.t !== b.t ? a.t - b.t : a.id - b.id;
}

/** Token cost of each (frozen, so unchanging) entry's default prompt line, computed once. */
const defaultCosts = new WeakMap<MemoryEntry, number>();

function defaultCost(entry: MemoryEntry): number {
  const slot = derivedOf(entry);
  if (slot?.cost !== undefined) return slot.cost;
  let cost = defaultCosts.get(entry);
  if (cost === undefined) {
    cost = estimateTokens(formatMemory(entry));
    if (slot !== undefined) slot.cost = cost;
    else if (Object.isFrozen(entry)) defaultCosts.set(entry, cost);
  }
  return cost;
}

/** Options of {@link fitToBudget}. */
export interface FitOptions {
  /** How each memory will be rendered; its cost is the estimate of that line. Default {@link formatMemory}. */
  format?: MemoryFormatter;
}

/**
 * Picks memories for a prompt: walks `ranked` (best first, as {@link recall} returns
 * them) and keeps each memory whose line still fits in `maxTokens`, skipping those that do
 * not; returns the kept ones in chronological order. The formatted result never exceeds
 * the budget: `estimateTokens(formatMemories(result, format)) <= maxTokens`.
 */
export function fitToBudget(
  ranked: readonly MemoryEntry[],
  maxTokens: number,
  opts: FitOptions = {},
): MemoryEntry[] {
  if (!(maxTokens >= 0)) throw new ConfigError(`memory token budget must be >= 0, got ${maxTokens}`);
  const format = opts.format ?? formatMemory;
  const kept: MemoryEntry[] = [];
  let used = 0;
  for (const entry of ranked) {
    const cost = format === formatMemory ? defaultCost(entry) : estimateTokens(format(entry));
    if (used + cost > maxTokens) continue;
    used += cost;
    kept.push(entry);
  }
  return kept.sort(compareChronological);
}
