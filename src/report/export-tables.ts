import { readLog } from '../replay/index.ts';
import type { AnalyzedRun } from './analyze-log.ts';
import type { NetworkMeasures } from './network-measures.ts';

/** A column of an exported table: name and storage type. */
export interface ExportColumn {
  name: string;
  type: 'int' | 'double' | 'string';
}

/** A tidy table: its columns and an async stream of rows (values in column order). */
export interface ExportTable {
  columns: ExportColumn[];
  rows: AsyncIterable<(number | string | null)[]>;
}

/**
 * One row per tick × metric (`tick`, `metric`, `value`), streamed from the log's tick
 * lines while the hash chain is verified.
 */
export function metricsTable(path: string): ExportTable {
  async function* rows() {
    for await (const line of readLog(path)) {
      if (line.type !== 'tick') continue;
      const metrics = (line.event.metrics ?? {}) as Record<string, unknown>;
      for (const [metric, value] of Object.entries(metrics))
        yield [line.t, metric, typeof value === 'number' ? value : null];
    }
  }
  return {
    columns: [
      { name: 'tick', type: 'double' },
      { name: 'metric', type: 'string' },
      { name: 'value', type: 'double' },
    ],
    rows: rows(),
  };
}

/**
 * One row per log line after the header: `seq`, `tick`, `type` and the rest of the line
 * as canonical JSON text (`data`, without seq, t, type, h and wall), streamed and verified.
 */
export function eventsTable(path: string): ExportTable {
  async function* rows() {
    for await (const line of readLog(path)) {
      if (line.type === 'header') continue;
      const { seq: _s, t: _t, type: _y, wall: _w, ...data } = line.event;
      yield [line.seq, line.t, line.type, JSON.stringify(data)];
    }
  }
  return {
    columns: [
      { name: 'seq', type: 'int' },
      { name: 'tick', type: 'double' },
      { name: 'type', type: 'string' },
      { name: 'data', type: 'string' },
    ],
    rows: rows(),
  };
}

/**
 * One row per agent from the last snapshot: `agent`, its state in every region, and every
 * numeric memory slot (an analysis made with the world's layout is needed); with the
 * world's network, its `degree`, local `clustering` and `pagerank` there too.
 */
export function agentsTable(run: AnalyzedRun, network?: NetworkMeasures): ExportTable {
  const s = run.finalState;
  if (!s) return { columns: [{ name: 'agent', type: 'int' }], rows: (async function* () {})() };
  const regions = [...s.regions.entries()];
  const slots = [...s.slots.entries()];
  const measures: [ExportColumn, ArrayLike<number> | null][] = network
    ? [
        [{ name: 'degree', type: 'int' }, network.degree],
        [{ name: 'clustering', type: 'double' }, network.clustering],
        [{ name: 'pagerank', type: 'double' }, network.pagerank],
      ]
    : [];
  async function* rows() {
    for (let i = 0; i < s!.size; i++)
      yield [
        i,
        ...measures.map(([, v]) => (v ? v[i] : null)),
        ...regions.map(([, r]) => r.states[r.values[i]] ?? null),
        ...slots.map(([, c]) => c[i]),
      ];
  }
  return {
    columns: [
      { name: 'agent', type: 'int' },
      ...measures.map(([c]) => c),
      ...regions.map(([name]) => ({ name: `state_${name}`, type: 'string' as const })),
      ...slots.map(([name]) => ({ name: `mem_${name}`, type: 'double' as const })),
    ],
    rows: rows(),
  };
}

/**
 * One row per cascade node: `item`, `root` (the origin), `parent` (the agent who first
 * told it; null for the origin), `agent`, `tick` (of the first telling) and `depth`.
 */
export function cascadesTable(run: AnalyzedRun): ExportTable {
  async function* rows() {
    for (const x of run.trees)
      for (const c of x.cascades) {
        const depth = new Int32Array(c.nodes.length);
        for (let j = 0; j < c.nodes.length; j++) {
          const p = c.parent[j];
          if (p >= 0) depth[j] = depth[p] + 1;
          yield [x.item, c.root, p < 0 ? null : c.nodes[p], c.nodes[j], c.time[j], depth[j]];
        }
      }
  }
  return {
    columns: [
      { name: 'item', type: 'string' },
      { name: 'root', type: 'int' },
      { name: 'parent', type: 'int' },
      { name: 'agent', type: 'int' },
      { name: 'tick', type: 'double' },
      { name: 'depth', type: 'int' },
    ],
    rows: rows(),
  };
}
