import { type Json, RunError } from '../../../core/index.ts';
import { readLog, readRecordedRun } from '../../../replay/index.ts';
import {
  analyzeLog,
  type FinalState,
  itemsWithProvenance,
  metricColour,
  metricPanels,
  STATE_COLOURS,
} from '../../../report/index.ts';
import { type InputFileFlags, inputFileOptions, loadWorldFromHeader } from '../../load-world.ts';
import { layoutOfLog } from '../../log-layout.ts';
import { chooseLayout, positionsOf } from './view-layout.ts';
import { traceRun } from './view-rerun.ts';
import { type NetworkSample, sampleNetwork } from './view-sample.ts';
import type { AgentDetail, ProvenanceHop, ViewModel } from './view-types.ts';

export type { AgentDetail, ProvenanceHop, ViewModel } from './view-types.ts';

/** A built viewer: the page's model and the per-agent details it serves on demand. */
export interface ViewData {
  model: ViewModel;
  detail(agent: number): AgentDetail | undefined;
}

/** Who told `agent` the item, back to the origin, from the final snapshot's provenance. */
export function provenancePath(state: FinalState, item: string, agent: number): ProvenanceHop[] {
  const src = state.slots.get(`src_${item}`);
  const at = state.slots.get(`at_${item}`);
  if (!src || !at || !(at[agent] >= 0)) return [];
  const path: ProvenanceHop[] = [];
  const seen = new Set<number>();
  for (let a = agent; a >= 0 && a < state.size && !seen.has(a) && at[a] >= 0; a = src[a]) {
    seen.add(a);
    path.push({ agent: a, at: at[a] });
  }
  return path;
}

/**
 * Builds the viewer's data from a log: the curves and, from the last snapshot, who heard
 * what when and from whom come from the log itself; the per-tick states and observations
 * of the drawn agents come from one rerun with the recorded LLM replies.
 *
 * @throws LogFormatError for a missing, corrupt or tampered log.
 */
export async function buildViewData(
  path: string,
  opts: { maxNodes: number; world?: string; check?: boolean; layout?: string } & InputFileFlags,
): Promise<ViewData> {
  const recorded = await readRecordedRun(path);
  const h = recorded.header;
  const analysisLayout = await layoutOfLog(path, opts.world, opts);
  const { analysis, finalState } = await analyzeLog(path, analysisLayout);
  const { def } = await loadWorldFromHeader(h, {
    worldFile: opts.world,
    logPath: path,
    ...inputFileOptions(opts),
    check: opts.check,
  });
  const size = h.size as number;
  const items = finalState ? itemsWithProvenance(finalState) : [];
  const origins = finalState ? originsOf(finalState, items) : [];
  // the network is known once the rerun has built the world: the sample is drawn then
  let sample: NetworkSample | undefined;
  const trace = await traceRun(def, recorded, (network) => {
    sample = sampleNetwork(size, network, opts.maxNodes, origins);
    return sample.nodes;
  });
  if (!sample) throw new RunError('the rerun of the log never started its world');
  const layout = chooseLayout(opts.layout, trace.network?.kind, sample.edges.length);
  const { x, y } = positionsOf(layout, path, sample.nodes, sample.edges, h.seed as number);
  const stateLayout = analysisLayout;
  const level = String(h.level ?? 'minimal');
  const llm = llmByAgent(recorded.llmRecords);
  const encounters = level === 'full' ? await encountersOf(path, new Set(sample.nodes)) : null;
  const heard: Record<string, number[]> = {};
  for (const item of items) {
    const at = finalState!.slots.get(`at_${item}`)!;
    heard[item] = sample.nodes.map((a) => (at[a] >= 0 ? at[a] : -1));
  }
  const model: ViewModel = {
    log: path,
    world: h.world as ViewModel['world'],
    seed: h.seed as number,
    digest: analysis.digest,
    complete: analysis.complete,
    level,
    size,
    ticks: analysis.ticks,
    metrics: analysis.metrics,
    regions: trace.regions,
    stateColours: STATE_COLOURS,
    panels: metricPanels(Object.keys(analysis.metrics), def.metrics).map((p) => ({
      id: p.id,
      title: p.title,
      unit: p.unit,
      lines: p.metrics.map((m, k) => ({
        key: m.key,
        label: m.spec.label,
        colour: metricColour(m, k, stateLayout),
      })),
    })),
    layout,
    nodes: sample.nodes,
    x,
    y,
    edges: sample.edges,
    sampled: sample.sampled,
    states: trace.states,
    heard,
    asymmetry: analysis.asymmetry,
    llmAgents: [...llm.keys()].sort((a, b) => a - b),
    notes: notes(level, sample.sampled, sample.nodes.length, size, finalState !== null),
  };
  const index = new Map(sample.nodes.map((a, k) => [a, k]));
  return {
    model,
    detail(agent) {
      const k = index.get(agent);
      if (k === undefined) return undefined;
      const provenance: Record<string, ProvenanceHop[]> = {};
      for (const item of items) provenance[item] = provenancePath(finalState!, item, agent);
      return {
        agent,
        memory: trace.memory[k],
        observed: trace.observed[k],
        encounters: encounters ? (encounters.get(agent) ?? []) : null,
        llm: llm.get(agent) ?? [],
        provenance,
      };
    },
  };
}

function originsOf(state: FinalState, items: readonly string[]): number[] {
  const out = new Set<number>();
  for (const item of items) {
    const src = state.slots.get(`src_${item}`)!;
    const at = state.slots.get(`at_${item}`)!;
    for (let i = 0; i < state.size; i++) if (at[i] >= 0 && !(src[i] >= 0)) out.add(i);
  }
  return [...out].sort((a, b) => a - b);
}

function llmByAgent(records: Record<string, unknown>[]): Map<number, AgentDetail['llm']> {
  const out = new Map<number, AgentDetail['llm']>();
  for (const r of records) {
    const f = (r.fields ?? r) as Record<string, unknown>;
    if (!/^\d+$/.test(String(f.caller))) continue;
    const agent = Number(f.caller);
    const reply = f.reply as { text?: string } | null;
    const list = out.get(agent) ?? [];
    list.push({
      tick: Number(f.tick),
      purpose: String(f.purpose ?? ''),
      messages: (f.messages ?? []) as Json,
      reply: reply?.text ?? null,
    });
    out.set(agent, list);
  }
  return out;
}

async function encountersOf(path: string, shown: Set<number>): Promise<Map<number, Record<string, Json>[]>> {
  const out = new Map<number, Record<string, Json>[]>();
  const add = (a: number, e: Record<string, Json>) => {
    if (!shown.has(a)) return;
    const list = out.get(a);
    if (list) list.push(e);
    else out.set(a, [e]);
  };
  for await (const line of readLog(path, { verify: false })) {
    if (line.type !== 'encounter') continue;
    const e: Record<string, Json> = { t: line.t, ...(line.event as Record<string, Json>) };
    add(Number(e.from), e);
    if (e.to !== e.from) add(Number(e.to), e);
  }
  return out;
}

function notes(level: string, sampled: boolean, shown: number, size: number, snapshot: boolean): string[] {
  const out: string[] = [];
  if (level !== 'full')
    out.push(
      'This log was written with --log minimal: encounters (who told whom, message by message) are not shown; rerun with --log full for them.',
    );
  if (sampled)
    out.push(
      `The network shows ${shown} of ${size} agents (the origins and their neighbourhoods, breadth first, then an even stride); counts are the drawn agents'.`,
    );
  if (!snapshot)
    out.push('The log has no snapshot the viewer can decode: no provenance paths or asymmetry view.');
  return out;
}
