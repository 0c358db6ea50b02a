// The code a pool's worker thread runs (see run-pool.ts): loads the world once per thread,
// runs one task, writes its log, and reports the outcome or the failure as plain data.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, GrapevineError, type Json, RunError, terminalSafe } from '../core/index.ts';
import type { LlmCounters } from '../llm/index.ts';
import { GuardedLog, LogWriter } from '../replay/index.ts';
import { runWorld, type WorldDefinition } from '../world/index.ts';
import { type ForkTask, outcomeOf, runForkTask } from './fork-task.ts';
import { checkRunLlm, openRunLlm } from './run-llm.ts';
import {
  BUDGET_STOP,
  LIMIT_STOP,
  type LlmSpent,
  type RunFailure,
  type RunOutcome,
  type RunTask,
  type WorldLocator,
} from './run-task.ts';

interface LoadedRunWorld {
  def: WorldDefinition;
  source: Record<string, Json>;
}

type Loader = (ref: string, data: Json | undefined) => Promise<LoadedRunWorld>;

const worlds = new Map<string, Promise<LoadedRunWorld>>();

function loadOnce(w: WorldLocator): Promise<LoadedRunWorld> {
  const key = JSON.stringify(w);
  let loaded = worlds.get(key);
  if (!loaded) {
    loaded = import(w.loaderUrl).then((m: { loadRunWorld?: Loader }) => {
      if (typeof m.loadRunWorld !== 'function')
        throw new RunError(`the world loader ${w.loaderUrl} exports no loadRunWorld`);
      return m.loadRunWorld(w.ref, w.data);
    });
    worlds.set(key, loaded);
  }
  return loaded;
}

/**
 * The world with a `resolvePath` that admits only `allowed` files: a file parameter of an
 * untrusted spec names one of the files the worker's operator listed, or the run fails
 * before the file is opened.
 */
function withInputFiles(def: WorldDefinition, allowed: readonly string[]): WorldDefinition {
  const files = new Set(allowed);
  const resolvePath = (param: string, path: string): string => {
    const abs = resolve(path);
    if (files.has(abs)) return abs;
    throw new ConfigError(
      `the spec names ${param}=${terminalSafe(path)}, a file this worker was not given: a worker opens only the files on its command line`,
      { hint: 'start the worker with --input-file FILE for each data file its runs may read' },
    );
  };
  return { ...def, create: (setup) => def.create({ ...setup, resolvePath }) };
}

/** Tokens and money spent, from a run's LLM counters. */
function spentOf(c: LlmCounters): LlmSpent {
  return { tokens: c.tokensIn + c.tokensOut, costUsd: c.costUsd };
}

/** A failure as plain data (errors do not cross threads intact). */
function failureOf(index: number, err: unknown): RunFailure {
  const e = err as { message?: string; code?: string; hint?: string; exitCode?: 1 | 2 };
  const exit = e?.exitCode === 1 || e?.exitCode === 2 ? { exitCode: e.exitCode } : {};
  return { index, error: { message: String(e?.message ?? err), code: e?.code, hint: e?.hint, ...exit } };
}

/** Runs one task in this thread; never throws (a failure is returned as data). */
export async function runTask(task: RunTask): Promise<RunOutcome | RunFailure> {
  try {
    const { def: loaded, source } = await loadOnce(task.world);
    const def = task.inputFiles ? withInputFiles(loaded, task.inputFiles) : loaded;
    if (def.needsLlm && !task.llm)
      throw new RunError(`world "${def.id}" needs an LLM and the batch gave its runs none`, {
        hint: 'give the batch LLM flags (--llm-base-url, --model)',
      });
    const llm = def.needsLlm && task.llm ? await openRunLlm(task.llm, task.seed) : undefined;
    let log: GuardedLog | undefined;
    try {
      const r = await runWorld(def, {
        params: task.params,
        seed: task.seed,
        ticks: task.ticks,
        source,
        openLog: (header) => {
          log = new GuardedLog(LogWriter.create(task.log, header));
          return log;
        },
        ...(task.maxEvents === undefined ? {} : { shouldStop: () => overLimit(task, log) }),
        ...llm?.services,
      });
      // a run whose every LLM call failed is redone by a resumed sweep: its log goes
      if (llm) checkRunLlm(llm.counters, () => rmSync(task.log, { force: true }));
      const llmSpent = llm ? spentOf(llm.counters) : undefined;
      if (r.reason !== 'budget-exhausted')
        return { ...outcomeOf(task.index, r), ...(llmSpent ? { llmSpent } : {}) };
      // stopped by the batch's budget: not a finished run (a resumed sweep redoes it)
      rmSync(task.log, { force: true });
      return {
        index: task.index,
        error: {
          message: `stopped at tick ${r.ticks}: the LLM budget is spent`,
          code: BUDGET_STOP,
          exitCode: 1,
        },
        ...(llmSpent ? { llmSpent } : {}),
      };
    } finally {
      await llm?.close();
    }
  } catch (err) {
    if ((err as { code?: string }).code === LIMIT_STOP) rmSync(task.log, { force: true });
    return failureOf(task.index, err);
  }
}

/**
 * The event limit of a task (checked at each tick boundary): throws once the log holds more
 * lines than `maxEvents`, so an endless world cannot fill a worker's disk.
 */
function overLimit(task: RunTask, log: GuardedLog | undefined): null {
  if (task.maxEvents !== undefined && log !== undefined && log.seq > task.maxEvents)
    throw new GrapevineError(
      LIMIT_STOP,
      `stopped after ${log.seq} log events: more than this worker's limit of ${task.maxEvents}`,
      { hint: 'the worker allows more with --max-run-events; or give the run fewer ticks', exitCode: 1 },
    );
  return null;
}

/** Writes one child of a fork batch in this thread; never throws (a failure is returned as data). */
export async function forkTask(task: ForkTask): Promise<RunOutcome | RunFailure> {
  try {
    const { def } = await loadOnce(task.world);
    return await runForkTask(task, def);
  } catch (err) {
    return failureOf(task.index, err);
  }
}
