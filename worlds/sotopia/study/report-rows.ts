import { DIMENSION_NAMES, DIMENSIONS } from '../dimensions.ts';
import type { SotopiaSummary } from '../summary.ts';
import type { DealOutcome, MentionOutcome } from './detectors.ts';
import type { PlannedEpisode } from './plan.ts';
import type { MeanSe } from './stats.ts';

/**
 * The rows a study report is built from (one per episode) and the report's dimensions:
 * what the report, its statistics and its plots share.
 */

/** The report's dimensions: Sotopia-EVAL's seven and their unweighted mean. */
export const REPORT_DIMENSIONS = [...DIMENSION_NAMES, 'overall'] as const;

/** A report dimension. */
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

/** Score range of a report dimension (`overall`: the means of the seven ranges' ends). */
export function dimensionRange(d: ReportDimension): { min: number; max: number } {
  if (d !== 'overall') return { min: DIMENSIONS[d].min, max: DIMENSIONS[d].max };
  const n = DIMENSION_NAMES.length;
  return {
    min: DIMENSION_NAMES.reduce((s, k) => s + DIMENSIONS[k].min, 0) / n,
    max: DIMENSION_NAMES.reduce((s, k) => s + DIMENSIONS[k].max, 0) / n,
  };
}

/** One finished episode: its plan entry, its log's run summary, its digest and end reason. */
export interface EpisodeResult {
  episode: PlannedEpisode;
  summary: SotopiaSummary;
  digest: string;
  /** The run's stop reason (`episode-end` unless stopped otherwise). */
  reason: string;
  /** The log read: the episode's last attempt (`<log>.attemptK.ndjson` after regenerations). */
  log?: string;
  /** Attempts the episode took (1 unless its judgement failed and the study reran it). */
  attempts?: number;
}

/** Per-dimension scores of a row: the episode mean of the two characters, and each character's. */
export type Scores = Record<ReportDimension, number>;

/** One episode in the report. */
export interface EpisodeRow {
  scenario: string;
  envId: string;
  source: string;
  pair: number;
  mode: string;
  seed: number;
  log: string;
  /** Attempts the episode took, when more than one (the log is then the last attempt's). */
  attempts?: number;
  digest: string;
  endReason: string;
  turns: number;
  words: number;
  wordsPerTurn: number | null;
  fallbackTurns: number;
  /** True when the judge gave no valid scores (fallback, or judge off). */
  unscored: boolean;
  /** zhou2024: no valid script or judgement after every regeneration (left out of every figure). */
  missing: boolean;
  /** With `--models A,B`: the seating (`ab`: A in seat 0) and the seats' models. */
  order?: 'ab' | 'ba';
  seatModels?: [string, string];
  scores: { mean: Scores; agent0: Scores; agent1: Scores } | null;
  deal?: DealOutcome & { position: number | null };
  mention?: MentionOutcome & { shared: string[] };
}

/** A dimension of one mode: episode means (mean ± SE over episodes), and per character seat. */
export type DimensionStats = MeanSe & { agent0: MeanSe; agent1: MeanSe };
