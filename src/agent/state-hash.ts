import { mix32i } from '../core/index.ts';

const f64 = new Float64Array(1);
const i32 = new Int32Array(f64.buffer);

// Every hash below is held signed (mix32i, Int32Array tables): the same bits as unsigned,
// but a small integer to V8, so no write allocates a heap number on its way through.

/** The keyed hash of one cell value (its 64 bits). */
function valueHash(x: number): number {
  f64[0] = x;
  return mix32i(i32[0] ^ mix32i(i32[1] + 0x9e3779b9));
}

/**
 * Values -1 .. SMALL_VALUES - 2 have their hash in a table: states, counters, ticks and the
 * -1 of "unset" are most of the writes, and the table halves the mixing per write.
 */
const SMALL_VALUES = 4096;
const smallHash = Int32Array.from({ length: SMALL_VALUES }, (_, k) => valueHash(k - 1));

/** {@link valueHash}, from the table when `x` is a small integer (never for -0, whose bits differ). */
function cellValueHash(x: number): number {
  if ((x | 0) === x && x >= -1 && x < SMALL_VALUES - 1 && (x !== 0 || 1 / x > 0)) return smallHash[x + 1];
  return valueHash(x);
}

/** The per-cell part of a cell's key, mix32i(cell + 0x7f4a7c15), for the first cells. */
const CELL_KEYS = 256;
const cellKeys = Int32Array.from({ length: CELL_KEYS }, (_, cell) => mix32i(cell + 0x7f4a7c15));

/**
 * An incremental 64-bit hash of a population's state: the sum, over every cell
 * (agent, region or slot), of a keyed hash of its value minus the hash of its initial
 * value. Each write updates it in O(1), so a per-tick state digest costs nothing at a
 * million agents, and two executors that hold the same state have the same hash.
 * Every state write of a run goes through {@link StateHash.change}: it reads the parts
 * that depend only on the cell or on a small value from tables (same figures as mixing them).
 */
export class StateHash {
  private a = 0;
  private b = 0;
  /** How many changes (writes of a new value) it has recorded: a cheap "did anything change?" mark. */
  changes = 0;

  /** Records that `agent`'s `cell` went from `from` to `to`. */
  change(agent: number, cell: number, from: number, to: number): void {
    if (from === to) return;
    this.changes = (this.changes + 1) | 0; // wraps: only compared for equality
    const c = cell < CELL_KEYS ? cellKeys[cell] : mix32i(cell + 0x7f4a7c15);
    const key = mix32i(Math.imul(agent, 0x9e3779b1) ^ c);
    const hf = cellValueHash(from);
    const ht = cellValueHash(to);
    this.a = (this.a - mix32i(key ^ hf) + mix32i(key ^ ht)) | 0;
    this.b = (this.b - mix32i(key + hf + 0x85ebca6b) + mix32i(key + ht + 0x85ebca6b)) | 0;
  }

  /** The hash as 16 hex digits. */
  hex(): string {
    return (this.a >>> 0).toString(16).padStart(8, '0') + (this.b >>> 0).toString(16).padStart(8, '0');
  }

  /** Plain-JSON state, for snapshots (unsigned halves). */
  state(): [number, number] {
    return [this.a >>> 0, this.b >>> 0];
  }

  /** Restores {@link StateHash.state}. */
  restore([a, b]: [number, number]): void {
    this.a = a | 0;
    this.b = b | 0;
    this.changes = (this.changes + 1) | 0;
  }
}
