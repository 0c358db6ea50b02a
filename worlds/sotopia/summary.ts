import type { Json, WorldView } from '../../src/index.ts';
import type { EpisodeScores, JudgeOutcome } from './judge-reply.ts';
import type { SotopiaRun } from './run-context.ts';
import { ENV_SEAT } from './seats.ts';
import { type EndReason, type TurnRecord, wordCount, wordsBySeat } from './transcript.ts';
import type { Mode } from './views.ts';

/**
 * The run summary of a Sotopia episode (the `end` event's `summary`, `run --json`'s
 * `summary`). Documented in docs/SOTOPIA.md.
 */
export type SotopiaSummary = {
  envId: string;
  codename: string;
  source: string;
  mode: Mode;
  pair: number;
  relationship: string;
  /** Seat 0 and seat 1. */
  agents: { seat: number; id: string; name: string }[];
  /** Why the episode ended, or `unfinished` when the run stopped first (max ticks, budget). */
  endReason: EndReason | 'unfinished';
  /** Number of turns (idle `none` turns included). */
  turns: number;
  /** Words said or done over all turns; per seat in `wordsBySeat`. */
  words: number;
  wordsBySeat: [number, number];
  /** Turns that are fallbacks after invalid replies. */
  fallbackTurns: number;
  transcript: TurnRecord[];
  /** Per character the seven dimensions, `overall` and `reasoning`; null without a valid judgement. */
  scores: EpisodeScores | null;
  /** The judge's model, whether it fell back, and the errors; null when `judge` is off or the run was unfinished. */
  judge: { model: string; fallback: boolean; errors: string[]; attempts?: number } | null;
  /** zhou2024 only: the protocol. */
  protocol?: string;
  /**
   * zhou2024 only: true when the episode has no valid outcome after every regeneration (no
   * script, or the judge on and no valid judgement): a study reports it as missing, never
   * as a scored episode.
   */
  missing?: boolean;
  /** zhou2024 script mode: script calls made (1 = the first held). */
  scriptAttempts?: number;
  /** zhou2024: the seats' models. */
  models?: { seat0: string; seat1: string; judge: string | null };
};

function transcriptIn(view: WorldView, seat: number): TurnRecord[] {
  return (view.executor.getMemory(seat, 'transcript') as TurnRecord[] | undefined) ?? [];
}

/** The longest transcript any seat holds (for runs stopped before the judge step). */
function longestTranscript(view: WorldView): TurnRecord[] {
  let best: TurnRecord[] = [];
  for (let seat = 0; seat <= ENV_SEAT; seat++) {
    const t = transcriptIn(view, seat);
    if (t.length > best.length) best = t;
  }
  return best;
}

/** Builds the summary from the environment's memory (or, unfinished, from the seats'). */
export function sotopiaSummary(run: SotopiaRun, view: WorldView): Record<string, Json> {
  const ep = run.episode;
  const endReason = view.executor.getMemory(ENV_SEAT, 'endReason') as EndReason | undefined;
  const transcript = endReason ? transcriptIn(view, ENV_SEAT) : longestTranscript(view);
  const outcome = view.executor.getMemory(ENV_SEAT, 'judge') as JudgeOutcome | null | undefined;
  const summary: SotopiaSummary = {
    envId: ep.env.env_id,
    codename: ep.env.codename,
    source: ep.env.source,
    mode: run.params.mode,
    pair: ep.pair,
    relationship: ep.relationship,
    agents: ep.agents.map((a, seat) => ({ seat, id: a.agent_id, name: ep.names[seat] })),
    endReason: endReason ?? 'unfinished',
    turns: transcript.length,
    words: transcript.reduce((n, t) => n + wordCount(t.text), 0),
    wordsBySeat: wordsBySeat(transcript),
    fallbackTurns: transcript.filter((t) => t.fallback).length,
    transcript,
    scores: outcome?.scores ?? null,
    judge: outcome ? { model: outcome.model, fallback: outcome.fallback, errors: outcome.errors } : null,
  };
  Object.assign(summary, run.protocol.summaryFields(view, summary));
  return summary as unknown as Record<string, Json>;
}

/** Per-tick metric: turns played so far. */
export function sotopiaMetrics(view: WorldView): Record<string, number> {
  return { turns: longestTranscript(view).length };
}
