import { canonicalJson, type Json, LogFormatError } from '../core/index.ts';
import { readLog } from '../replay/index.ts';

/** A child of a fork, as its log tells it (read and verified once). */
export interface ForkChild {
  path: string;
  /** The parent as the fork recorded it: its path (for display only, never opened here) and digest. */
  parent: string;
  parentDigest: string;
  /** The tick the child was forked after. */
  atTick: number;
  /** The seed of the child's future: its fork's last `reseed`, else the run's own seed. */
  seed: number;
  /** The fork's interventions other than `reseed`, in the order applied. */
  treatment: Json[];
  /** Canonical JSON of {@link ForkChild.treatment}: children with the same key got the same treatment. */
  treatmentKey: string;
  world: { id: string; version: string };
  params: Record<string, Json>;
  /** Whether the log ends with its `end` line. */
  complete: boolean;
  /** The run's tick count: the tick of its last `tick` line (see docs/LOG-FORMAT.md). */
  lastTick: number;
  /** The last tick line's metrics. */
  final: Record<string, number>;
  /** Every tick line's time and metrics, when asked for. */
  series?: { ticks: number[]; metrics: Record<string, number>[] };
}

/** Most fork interventions kept per child (a log is untrusted: its size is bounded here). */
const MAX_INTERVENTIONS = 10_000;

interface ForkRecord {
  parent: string;
  parentDigest: string;
  atTick: number;
  interventions: number | undefined;
}

/** The header's fork record (`wall.fork`), checked for shape; undefined for a log that is not a fork's child. */
function forkRecord(header: Record<string, unknown>, path: string): ForkRecord | undefined {
  const fork = (header.wall as { fork?: Record<string, unknown> } | undefined)?.fork;
  if (fork === undefined) return undefined;
  const { parent, parentDigest, atTick, interventions } = fork;
  const ok =
    typeof parent === 'string' &&
    parent.length <= 4096 &&
    typeof parentDigest === 'string' &&
    /^[0-9a-f]{64}$/.test(parentDigest) &&
    Number.isSafeInteger(atTick) &&
    (atTick as number) >= 0 &&
    (interventions === undefined || (Number.isSafeInteger(interventions) && (interventions as number) >= 0));
  if (!ok)
    throw new LogFormatError(`${path}: its header's fork record (wall.fork) is malformed`, undefined, {
      hint: 'the log was damaged or edited; fork again',
    });
  return {
    parent: parent as string,
    parentDigest: parentDigest as string,
    atTick: atTick as number,
    interventions: interventions as number | undefined,
  };
}

/**
 * Reads a log that a fork wrote (verifying its hash chain, and its parent's for a delta
 * child): the fork point, the fork's interventions (the last ones the log records right
 * after the fork tick, as many as the fork applied), the future seed they set, the final
 * metrics and the run's tick count. Returns undefined, after the header only, for a log
 * that is not a fork's child.
 *
 * @throws LogFormatError for a damaged log or a malformed fork record.
 */
export async function readForkChild(
  path: string,
  opts: { series?: boolean } = {},
): Promise<ForkChild | undefined> {
  const lines = readLog(path);
  let header: Record<string, unknown> = {};
  let fork: ForkRecord | undefined;
  const atFork: Json[] = [];
  const series = opts.series ? { ticks: [] as number[], metrics: [] as Record<string, number>[] } : undefined;
  let final: Record<string, number> = {};
  let lastTick = 0;
  for (;;) {
    const step = await lines.next();
    if (step.done) {
      if (!fork) throw new LogFormatError(`${path} has no header`);
      return child(path, header, fork, atFork, { final, lastTick, complete: step.value.complete, series });
    }
    const line = step.value;
    if (line.type === 'header') {
      header = line.event;
      fork = forkRecord(header, path);
      if (!fork) {
        await lines.return(undefined as never);
        return undefined;
      }
    } else if (line.type === 'tick') {
      final = (line.event.metrics ?? {}) as Record<string, number>;
      lastTick = line.t;
      series?.ticks.push(line.t);
      series?.metrics.push(final);
    } else if (line.type === 'intervene' && line.t === fork?.atTick && atFork.length < MAX_INTERVENTIONS)
      atFork.push(line.event.intervention as Json);
  }
}

function child(
  path: string,
  header: Record<string, unknown>,
  fork: ForkRecord,
  atFork: Json[],
  rest: Pick<ForkChild, 'final' | 'lastTick' | 'complete' | 'series'>,
): ForkChild {
  // the fork's interventions come last at the fork tick (a parent's own ones there come first)
  const mine = atFork.slice(Math.max(0, atFork.length - (fork.interventions ?? atFork.length)));
  const isReseed = (iv: Json) => (iv as { type?: unknown } | null)?.type === 'reseed';
  const reseeds = mine.filter(isReseed);
  const reseed = (reseeds.at(-1) as { seed?: unknown } | undefined)?.seed;
  const treatment = mine.filter((iv) => !isReseed(iv));
  const world = (header.world ?? {}) as { id?: unknown; version?: unknown };
  return {
    path,
    parent: fork.parent,
    parentDigest: fork.parentDigest,
    atTick: fork.atTick,
    seed: Number(typeof reseed === 'number' ? reseed : header.seed),
    treatment,
    treatmentKey: canonicalJson(treatment),
    world: { id: String(world.id), version: String(world.version) },
    params: (header.params ?? {}) as Record<string, Json>,
    final: rest.final,
    lastTick: rest.lastTick,
    complete: rest.complete,
    ...(rest.series ? { series: rest.series } : {}),
  };
}
