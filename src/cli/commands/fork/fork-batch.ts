import { GrapevineError, type Json } from '../../../core/index.ts';
import type { LlmFlags } from '../../../llm/index.ts';
import type { RecordedRun } from '../../../replay/index.ts';
import { isRunFailure, type RunFailure, RunPool } from '../../../sweep/index.ts';
import type { Intervention } from '../../../world/index.ts';
import { contributionSources } from '../../sweep-world-loader.ts';
import { installedContributions } from '../../world-catalog.ts';
import type { ForkWorldData } from './fork-world-loader.ts';

/** One child of a fork batch: its fork tick, log path, interventions and report labels. */
export interface ForkBatchChild {
  atTick: number;
  out: string;
  ivs: readonly Intervention[];
  label: Record<string, Json>;
}

/** What {@link runForkBatch} needs. */
export interface ForkBatchOptions {
  /** The parent's path as given (children name it as `fork` does) and its verified recording. */
  parent: string;
  recorded: RecordedRun;
  /** Every fork tick of the batch (the parent was read for these). */
  ticks: readonly number[];
  layout: 'delta' | 'standalone';
  children: readonly ForkBatchChild[];
  /** Worker threads (default: one per core, never more than children). */
  workers?: number;
  /** `--world`, `--network-file` and `--input` of the command. */
  worldFile?: string;
  networkFile?: string;
  inputs?: Record<string, string>;
  /** A world that needs an LLM: the batch's flags (see openBatchLlm; its endpoint is open). */
  llm?: LlmFlags;
}

const LOADER = new URL(
  `./fork-world-loader${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

/** A worker's failure as the error the sequential fork would have thrown (same code, hint and exit code). */
function rethrow(f: RunFailure, out: string): never {
  const { message, code, hint, exitCode } = f.error;
  throw new GrapevineError(code ?? 'E_RUN', exitCode === undefined ? `${out}: ${message}` : message, {
    ...(hint ? { hint } : {}),
    exitCode: exitCode ?? 1,
  });
}

/**
 * Writes the children of a fork batch on a {@link RunPool}: each thread installs
 * the worlds installed here (their contributions' `from`), loads the world from the
 * parent's header once and reads the parent once (from its `.verified`
 * index, written when the command verified it), then writes its children (an LLM world's
 * children open their LLM in the thread from `llm`). Every child gets
 * the bytes and digest it gets from a sequential fork; results come back in batch order.
 * @throws the first failed child's error (by batch order), after every child settled.
 */
export async function runForkBatch(o: ForkBatchOptions): Promise<Record<string, Json>[]> {
  const data: ForkWorldData = {
    ...contributionSources(installedContributions()),
    header: o.recorded.header as Record<string, Json>,
    options: {
      ...(o.worldFile === undefined ? {} : { worldFile: o.worldFile }),
      ...(o.networkFile === undefined ? {} : { networkFile: o.networkFile }),
      ...(o.inputs === undefined ? {} : { inputs: o.inputs }),
    },
  };
  const world = { loaderUrl: LOADER.href, ref: o.parent, data: data as unknown as Json };
  const pool = new RunPool({
    workers: Math.min(o.workers ?? Number.POSITIVE_INFINITY, o.children.length) || 1,
  });
  try {
    const results = await Promise.all(
      o.children.map((c, index) =>
        pool.fork({
          index,
          world,
          parent: o.parent,
          ticks: [...o.ticks],
          atTick: c.atTick,
          interventions: c.ivs as unknown as Json[],
          out: c.out,
          layout: o.layout,
          ...(o.llm ? { llm: o.llm } : {}),
          wall: {
            fork: {
              parent: o.parent,
              parentDigest: o.recorded.digest,
              atTick: c.atTick,
              interventions: c.ivs.length,
            },
          },
        }),
      ),
    );
    return results.map((r, k) => {
      const c = o.children[k];
      if (isRunFailure(r)) rethrow(r, c.out);
      return { ...c.label, log: c.out, digest: r.digest, ticks: r.ticks, metrics: r.metrics };
    });
  } finally {
    await pool.close();
  }
}
