import { mix32 } from '../core/index.ts';

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

function valueHash(x: number): number {
  f64[0] = x;
  return mix32(u32[0] ^ mix32(u32[1] + 0x9e3779b9));
}

/**
 * An incremental 64-bit hash of a population's state: the sum, over every cell
 * (agent, region or slot), of a keyed hash of its value minus the hash of its initial
 * value. Each write updates it in O(1), so a per-tick state digest costs nothing at a
 * million agents, and two executors that hold the same state have the same hash.
 */
export class StateHash {
  private a = 0;
  private b = 0;

  /** Records that `agent`'s `cell` went from `from` to `to`. */
  change(agent: number, cell: number, from: number, to: number): void {
    if (from === to) return;
    const key = mix32(Math.imul(agent, 0x9e3779b1) ^ mix32(cell + 0x7f4a7c15));
    const hf = valueHash(from);
    const ht = valueHash(to);
    this.a = (this.a - mix32(key ^ hf) + mix32(key ^ ht)) >>> 0;
    this.b = (this.b - mix32(key + hf + 0x85ebca6b) + mix32(key + ht + 0x85ebca6b)) >>> 0;
  }

  /** The hash as 16 hex digits. */
  hex(): string {
    return this.a.toString(16).padStart(8, '0') + this.b.toString(16).padStart(8, '0');
  }

  /** Plain-JSON state, for snapshots. */
  state(): [number, number] {
    return [this.a, this.b];
  }

  /** Restores {@link StateHash.state}. */
  restore([a, b]: [number, number]): void {
    this.a = a >>> 0;
    this.b = b >>> 0;
  }
}
