import { readFileSync, writeFileSync } from 'node:fs';
import { UndirectedGraph } from 'graphology';
import forceAtlas2Module from 'graphology-layout-forceatlas2';
import { RngStreams, sha256Hex } from '../../../core/index.ts';
import { circleLayout } from './view-sample.ts';

const forceAtlas2 = forceAtlas2Module as unknown as (typeof forceAtlas2Module)['default'];

/** How the viewer places the drawn agents. */
export type LayoutName = 'force' | 'circle';

/** Positions of the drawn agents in [0, 1]^2, by position in the sample. */
export interface Positions {
  x: number[];
  y: number[];
}

/** Networks drawn best as a ring in agent order (lattices and their rewirings). */
const RINGS: ReadonlySet<string> = new Set(['ring-lattice', 'watts-strogatz']);

/** Iterations of ForceAtlas2: enough for a few thousand agents to settle into their communities. */
const ITERATIONS = 150;

/**
 * The layout a view uses: the asked one, else a ring for lattices, small worlds and drawings
 * without edges, and ForceAtlas2 for every other network (scale-free, random, block models,
 * loaded ones), where a ring in agent order is a hairball.
 */
export function chooseLayout(
  asked: string | undefined,
  networkKind: string | undefined,
  edges: number,
): LayoutName {
  if (asked === 'force' || asked === 'circle') return asked;
  return edges === 0 || networkKind === undefined || RINGS.has(networkKind) ? 'circle' : 'force';
}

/** Scales positions into [0.03, 0.97]^2, keeping the aspect ratio. */
function normalise(x: number[], y: number[]): Positions {
  const lo = [Math.min(...x), Math.min(...y)];
  const span = Math.max(Math.max(...x) - lo[0], Math.max(...y) - lo[1]) || 1;
  const f = (v: number, l: number) => 0.03 + (0.94 * (v - l)) / span;
  return { x: x.map((v) => f(v, lo[0])), y: y.map((v) => f(v, lo[1])) };
}

/**
 * ForceAtlas2 (Jacomy et al. 2014, PLoS ONE 9(6)) through graphology-layout-forceatlas2, with
 * its settings inferred for the graph's size (Barnes–Hut beyond a few hundred agents). The
 * algorithm draws no random numbers: from the same start (seeded by the run's seed) it gives
 * the same positions, so a log has one drawing.
 */
export function forceLayout(count: number, edges: readonly [number, number][], seed: number): Positions {
  const graph = new UndirectedGraph();
  const start = new RngStreams(seed).stream('view-layout');
  for (let k = 0; k < count; k++) graph.addNode(String(k), { x: start.next() * 100, y: start.next() * 100 });
  for (const [a, b] of edges) if (!graph.hasEdge(String(a), String(b))) graph.addEdge(String(a), String(b));
  const settings = { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: count > 400 };
  const placed = forceAtlas2(graph, { iterations: ITERATIONS, settings });
  const x: number[] = [];
  const y: number[] = [];
  for (let k = 0; k < count; k++) {
    x.push(placed[String(k)].x);
    y.push(placed[String(k)].y);
  }
  return normalise(x, y);
}

/**
 * The positions of a drawing, computed once per log: a force layout is kept beside the log
 * (`<log>.layout.json`, keyed by the drawn agents, their edges and the seed) and read back
 * by the next view of the same log; a folder that cannot be written only costs a recomputation.
 */
export function positionsOf(
  layout: LayoutName,
  logPath: string,
  nodes: readonly number[],
  edges: readonly [number, number][],
  seed: number,
): Positions {
  if (layout === 'circle') return circleLayout(nodes.length);
  const key = sha256Hex(JSON.stringify({ nodes, edges, seed, iterations: ITERATIONS }));
  const cache = `${logPath}.layout.json`;
  try {
    const kept = JSON.parse(readFileSync(cache, 'utf8')) as { key?: string } & Positions;
    const fits = (v: unknown) =>
      Array.isArray(v) &&
      v.length === nodes.length &&
      v.every((c) => typeof c === 'number' && c >= 0 && c <= 1);
    if (kept.key === key && fits(kept.x) && fits(kept.y)) return { x: kept.x, y: kept.y };
  } catch {
    // no cached layout (or an unreadable one): compute it
  }
  const positions = forceLayout(nodes.length, edges, seed);
  try {
    writeFileSync(cache, JSON.stringify({ key, ...positions }));
  } catch {
    // a read-only folder: the next view computes it again
  }
  return positions;
}
