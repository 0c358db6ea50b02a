import { readLog } from '../replay/index.ts';
import { type Asymmetry, asymmetry } from './asymmetry.ts';
import { buildCascades, type CascadeSummary, type ItemCascades, summarizeCascade } from './cascades.ts';
import { decodeFinalState, type FinalState, type StateLayout } from './final-state.ts';
import { type LlmTick, tallyLlm } from './llm-series.ts';
import { compareAtMatchedSize, type MatchedSize } from './matched-size.ts';
import { TickSeries } from './tick-series.ts';

/** Cascade figures of one item. */
export interface ItemCascadeReport {
  item: string;
  /** Number of cascades (origins). */
  count: number;
  /** Agents who heard the item, all cascades together. */
  reached: number;
  orphans: number;
  /** [size, number of cascades of that size], by size. */
  sizeDistribution: [number, number][];
  /** The 100 largest cascades, largest first (ties: lower origin first). */
  largest: CascadeSummary[];
}

/** Everything a report shows, gathered in one pass over a log. */
export interface RunAnalysis {
  log: string;
  header: Record<string, unknown>;
  digest: string;
  complete: boolean;
  truncated: boolean;
  /** Lines per event type. */
  events: Record<string, number>;
  /** Tick times and per-tick metrics, aligned. */
  ticks: number[];
  /**
   * The run's tick count: the tick of its last `tick` line, which the `end` line repeats as
   * `ticks` and `run` prints (tick 0 is the initial state, so a run of T ticks has T + 1 tick
   * lines, fewer when a continuous-time run skipped ticks). 0 for a log without tick lines.
   */
  lastTick: number;
  metrics: Record<string, (number | null)[]>;
  items: string[];
  /** Per-tick LLM activity aligned with `ticks` (null when the log has no `llm` events). */
  llm: { [K in keyof LlmTick]: number[] } | null;
  /** Tick of the snapshot the cascades come from (null: no snapshot or no layout). */
  snapshotTick: number | null;
  cascades: ItemCascadeReport[];
  matched: MatchedSize[];
  asymmetry: Asymmetry[];
}

/** What {@link analyzeLog} returns beside the JSON-safe analysis: the decoded trees. */
export interface AnalyzedRun {
  analysis: RunAnalysis;
  /** Cascades per item (with their edges), for exports. */
  trees: ItemCascades[];
  /** The decoded last snapshot, when there is one and a layout was given. */
  finalState: FinalState | null;
}

/**
 * Reads a log once, verifying its hash chain, and gathers a report's figures: the
 * per-tick metrics (only `tick` lines are kept, as columns), LLM activity per tick, and,
 * from the last `snapshot` event decoded with `layout`, the provenance cascades of every
 * item that has `src_<item>` and `at_<item>` memory slots, their comparison at matched
 * size, and information asymmetry for each pair of such items. Earlier snapshots are
 * dropped as soon as a later one arrives, so memory holds one snapshot plus the series.
 *
 * @throws LogFormatError for a missing, corrupt or tampered log.
 */
export async function analyzeLog(path: string, layout?: StateLayout): Promise<AnalyzedRun> {
  const series = new TickSeries();
  const llm = new Map<number, LlmTick>();
  const events: Record<string, number> = {};
  let snapshot: { t: number; executor: unknown } | null = null;
  const lines = readLog(path);
  let header: Record<string, unknown> = {};
  for (;;) {
    const step = await lines.next();
    if (step.done) {
      const summary = step.value;
      const finalState = snapshot && layout ? decodeFinalState(snapshot.t, snapshot.executor, layout) : null;
      return assemble(path, header, summary, events, series, llm, finalState);
    }
    const line = step.value;
    events[line.type] = (events[line.type] ?? 0) + 1;
    if (line.type === 'header') header = line.event;
    else if (line.type === 'tick') series.add(line.t, line.event.metrics as Record<string, unknown>);
    else if (line.type === 'llm') tallyLlm(llm, Number(line.event.tick ?? line.t), line.event);
    else if (line.type === 'snapshot') {
      const state = line.event.state as { executor?: unknown } | undefined;
      snapshot = { t: line.t, executor: state?.executor };
    }
  }
}

function assemble(
  path: string,
  header: Record<string, unknown>,
  summary: { digest: string | null; complete: boolean; truncated: boolean },
  events: Record<string, number>,
  series: TickSeries,
  llm: Map<number, LlmTick>,
  finalState: FinalState | null,
): AnalyzedRun {
  const provenanceItems = finalState ? itemsWithProvenance(finalState) : [];
  const trees = provenanceItems.map((item) =>
    buildCascades(item, finalState!.slots.get(`src_${item}`)!, finalState!.slots.get(`at_${item}`)!),
  );
  const pairs: [string, string][] = [];
  provenanceItems.forEach((a, i) => {
    for (const b of provenanceItems.slice(i + 1)) pairs.push([a, b]);
  });
  const analysis: RunAnalysis = {
    log: path,
    header,
    digest: summary.digest ?? '',
    complete: summary.complete,
    truncated: summary.truncated,
    events,
    ticks: series.ticks,
    lastTick: series.ticks.at(-1) ?? 0,
    metrics: series.toJson(),
    items: [...new Set([...series.items(), ...provenanceItems])].sort(),
    llm: llm.size ? llmColumns(llm, series.ticks) : null,
    snapshotTick: finalState?.tick ?? null,
    cascades: trees.map(cascadeReport),
    matched: compareAtMatchedSize(trees),
    asymmetry: pairs.map(([a, b]) => asymmetry(finalState!, a, b, series.ticks)),
  };
  return { analysis, trees, finalState };
}

/** Items whose provenance the agents keep: both `src_<item>` and `at_<item>` slots exist. */
export function itemsWithProvenance(state: FinalState): string[] {
  const items: string[] = [];
  for (const slot of state.slots.keys())
    if (slot.startsWith('src_') && state.slots.has(`at_${slot.slice(4)}`)) items.push(slot.slice(4));
  return items.sort();
}

function cascadeReport(x: ItemCascades): ItemCascadeReport {
  const sizes = new Map<number, number>();
  for (const c of x.cascades) sizes.set(c.nodes.length, (sizes.get(c.nodes.length) ?? 0) + 1);
  const largest = [...x.cascades]
    .sort((p, q) => q.nodes.length - p.nodes.length || p.root - q.root)
    .slice(0, 100)
    .map(summarizeCascade);
  return {
    item: x.item,
    count: x.cascades.length,
    reached: x.cascades.reduce((s, c) => s + c.nodes.length, 0),
    orphans: x.orphans,
    sizeDistribution: [...sizes.entries()].sort((a, b) => a[0] - b[0]),
    largest,
  };
}

function llmColumns(byTick: Map<number, LlmTick>, ticks: number[]): RunAnalysis['llm'] {
  const keys = ['calls', 'inputTokens', 'outputTokens', 'retries', 'failures', 'cached'] as const;
  const cols = Object.fromEntries(keys.map((k) => [k, ticks.map((t) => byTick.get(t)?.[k] ?? 0)]));
  return cols as RunAnalysis['llm'];
}
