import { type Json, RunError } from '../core/index.ts';
import type { LlmFlags } from '../llm/index.ts';
import { continueRun, openContinuationLlm, type RecordedRun, readRecordedRun } from '../replay/index.ts';
import type { Intervention, RunResult, WorldDefinition } from '../world/index.ts';
import type { RunOutcome, WorldLocator } from './run-task.ts';

/**
 * One child of a fork batch for a worker thread: the parent log, the fork tick, the
 * interventions and where the child goes. The world is found through `world` (for the
 * CLI, a loader that checks the parent's header as `fork` does).
 */
export interface ForkTask {
  /** Position of the child in its batch. */
  index: number;
  world: WorldLocator;
  /** Absolute path of the parent log (verified by the caller before the batch starts). */
  parent: string;
  /** Every fork tick of the batch: the parent is read once per thread for all of them. */
  ticks: number[];
  atTick: number;
  /** Applied right after `atTick` (JSON interventions, as `fork --intervene` reads them). */
  interventions: Json[];
  /** Absolute path of the child log. */
  out: string;
  layout: 'delta' | 'standalone';
  /** Header `wall` fields of the child (not hashed). */
  wall?: Record<string, Json>;
  /**
   * The batch's LLM flags, for a world that needs an LLM: an endpoint (the batch's local
   * server when the command named none) and the model (the parent's unless `--model`).
   */
  llm?: LlmFlags;
}

/** The parents read in this thread, by path and fork ticks (a batch reads its parent once per thread). */
const parents = new Map<string, Promise<RecordedRun>>();

function parentOnce(task: ForkTask): Promise<RecordedRun> {
  const key = JSON.stringify([task.parent, task.ticks]);
  let read = parents.get(key);
  if (!read) {
    // the caller verified the parent and left its `.verified` index: this reads the tail only
    read = readRecordedRun(task.parent, { restoreTicks: task.ticks });
    read.catch(() => parents.delete(key));
    parents.set(key, read);
  }
  return read;
}

/** The outcome of a run, as plain data for the thread's caller. */
export function outcomeOf(index: number, r: RunResult): RunOutcome {
  return {
    index,
    digest: r.digest,
    ticks: r.ticks,
    reason: r.reason,
    metrics: r.metrics,
    summary: r.summary,
  };
}

/**
 * Writes one child of a fork batch (the same bytes as a `fork` of that child alone):
 * restores the parent's nearest snapshot, reruns the recorded ticks to `atTick`, applies
 * the interventions and runs on. A world that needs an LLM gets the recorded replies up to
 * `atTick` and the batch's endpoint after it, opened as `fork` opens them
 * ({@link openContinuationLlm}).
 */
export async function runForkTask(task: ForkTask, def: WorldDefinition): Promise<RunOutcome> {
  const recorded = await parentOnce(task);
  const base = {
    def,
    recorded,
    path: task.parent,
    atTick: task.atTick,
    out: task.out,
    interventions: task.interventions as unknown as Intervention[],
    layout: task.layout,
  };
  if (!def.needsLlm) return outcomeOf(task.index, await continueRun({ ...base, ...wallOf(task.wall) }));
  if (!task.llm)
    throw new RunError(`world "${def.id}" needs an LLM and the fork batch gave its children none`);
  const llm = await openContinuationLlm(recorded, task.atTick, task.llm, process.env, {
    reuseParentTail: task.interventions.length === 0,
  });
  try {
    const r = await continueRun({
      ...base,
      wall: { ...task.wall, llmEndpoint: llm.endpoint },
      // a fork runs to the parent's end: no budget stop (as `fork`)
      services: { ...llm.services, shouldStop: undefined },
    });
    return outcomeOf(task.index, r);
  } finally {
    await llm.close();
  }
}

function wallOf(wall: Record<string, Json> | undefined): { wall?: Record<string, Json> } {
  return wall ? { wall } : {};
}
