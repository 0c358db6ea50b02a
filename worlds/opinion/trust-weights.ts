import { resolve } from 'node:path';
import { ConfigError, CsrTopology, type Topology } from '../../src/index.ts';
import { checkAgent, type NumberRow, readNumberRows } from './number-rows.ts';

/** How far a row of W may sum from 1. */
export const ROW_SUM_TOLERANCE = 1e-9;

/**
 * A row-stochastic trust matrix W read from a file: `self[i]` = w_ii, and the off-diagonal
 * weights of row i in `cols`/`vals[offsets[i] .. offsets[i+1])`, sorted by column. Agent i
 * reads only its own row.
 */
export class TrustWeights {
  constructor(
    readonly self: Float64Array,
    readonly offsets: Int32Array,
    readonly cols: Int32Array,
    readonly vals: Float64Array,
  ) {}

  /** Number of agents. */
  get size(): number {
    return this.self.length;
  }

  /** How many other agents agent `i` listens to (positive off-diagonal weights). */
  heard(i: number): number {
    return this.offsets[i + 1] - this.offsets[i];
  }

  /** w_ij for j ≠ i (binary search in row i); 0 if absent. */
  weight(i: number, j: number): number {
    let lo = this.offsets[i];
    let hi = this.offsets[i + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.cols[mid];
      if (c === j) return this.vals[mid];
      if (c < j) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /**
   * The routing network of the weights: the "neighbours" of j are the agents that listen to
   * j (w_ij > 0, i ≠ j), so that `send({ to: 'neighbours' })` reaches exactly them.
   */
  listeners(): Topology {
    const n = this.size;
    const counts = new Int32Array(n + 1);
    for (const j of this.cols) counts[j + 1]++;
    for (let j = 0; j < n; j++) counts[j + 1] += counts[j];
    const out = new Int32Array(this.cols.length);
    const fill = counts.slice(0, n);
    for (let i = 0; i < n; i++)
      for (let p = this.offsets[i]; p < this.offsets[i + 1]; p++) out[fill[this.cols[p]]++] = i;
    return new CsrTopology('weights', counts, out);
  }
}

interface Entry {
  i: number;
  j: number;
  w: number;
  row: NumberRow;
}

function readEntries(path: string): Entry[] {
  const entries: Entry[] = [];
  for (const row of readNumberRows(path, 3, 'weights', 'i,j,w')) {
    const [i, j, w] = row.values;
    checkAgent(path, row, i, Number.MAX_SAFE_INTEGER);
    checkAgent(path, row, j, Number.MAX_SAFE_INTEGER);
    if (w < 0)
      throw new ConfigError(`${path}:${row.line}: weight ${w} is negative`, {
        hint: 'trust weights are non-negative and each row sums to 1',
      });
    entries.push({ i, j, w, row });
  }
  return entries.sort((a, b) => a.i - b.i || a.j - b.j || a.row.line - b.row.line);
}

function checkRows(path: string, entries: Entry[], size: number): void {
  const sums = new Float64Array(size);
  const firstLine = new Int32Array(size);
  entries.forEach((e, k) => {
    const prev = entries[k - 1];
    if (prev && prev.i === e.i && prev.j === e.j)
      throw new ConfigError(
        `${path}:${e.row.line}: weight ${e.i},${e.j} given twice (first on line ${prev.row.line})`,
        {
          hint: 'give each (i,j) pair once',
        },
      );
    if (firstLine[e.i] === 0) firstLine[e.i] = e.row.line;
    sums[e.i] += e.w;
  });
  for (let i = 0; i < size; i++) {
    if (firstLine[i] === 0)
      throw new ConfigError(`${path}: agent ${i} has no row (agents run 0..${size - 1})`, {
        hint: 'every agent needs weights summing to 1 (e.g. "i,i,1" for an agent who listens only to itself)',
      });
    if (Math.abs(sums[i] - 1) > ROW_SUM_TOLERANCE)
      throw new ConfigError(
        `${path}:${firstLine[i]}: the weights of agent ${i} sum to ${sums[i]}, not 1 (tolerance ${ROW_SUM_TOLERANCE})`,
        { hint: 'W must be row-stochastic: rescale the row so that it sums to 1' },
      );
  }
}

/**
 * Loads a trust matrix from a CSV of "i,j,w" lines (agent i puts weight w on agent j's
 * opinion; zero weights may be left out). The population is 0..max index; every row must
 * sum to 1 within {@link ROW_SUM_TOLERANCE}.
 * @throws ConfigError naming `file:line` for a malformed line, a negative or repeated
 * weight, or a row that does not sum to 1.
 */
export function loadTrustWeights(file: string): TrustWeights {
  const path = resolve(file);
  const entries = readEntries(path);
  let size = 0;
  for (const e of entries) size = Math.max(size, e.i + 1, e.j + 1);
  checkRows(path, entries, size);
  const self = new Float64Array(size);
  const offsets = new Int32Array(size + 1);
  const off = entries.filter((e) => e.i !== e.j && e.w > 0);
  for (const e of entries) if (e.i === e.j) self[e.i] = e.w;
  for (const e of off) offsets[e.i + 1]++;
  for (let i = 0; i < size; i++) offsets[i + 1] += offsets[i];
  return new TrustWeights(
    self,
    offsets,
    Int32Array.from(off, (e) => e.j),
    Float64Array.from(off, (e) => e.w),
  );
}
