import { mix32 } from '../src/core/index.ts';
import { CsrTopology, generateNetwork, RngStreams } from '../src/index.ts';
import { pickDistinct } from '../worlds/rumor/index.ts';

/** What {@link buildRumorSetup} draws: the same network and seeds as `worlds/rumor` for a seed. */
export interface RumorSetup {
  /** The Watts-Strogatz network, built by the engine's own generator from the `network` stream. */
  topology: CsrTopology;
  /** Agents who know the fact at tick 0 (the `insiders` stream). */
  insiders: number[];
  /** Agents who plant the rumour at tick 0 (the `spreaders` stream). */
  spreaders: number[];
  /** Purpose key of the engine's `agent` step stream, so the baseline draws the same numbers. */
  agentKey: number;
}

/** Parameters of the rumour world that the baseline supports (the world's defaults). */
export interface RumorSetupParams {
  n: number;
  seed: number;
  k?: number;
  beta?: number;
  insiders?: number;
  spreaders?: number;
}

/** What a baseline run reports, in the engine's terms. */
export interface BaselineResult {
  reason: 'extinct' | 'max-ticks';
  ticks: number;
  steps: number;
  deliveries: number;
  /** Agents who ever heard each item (the engine's `<item>.aware`). */
  aware: { fact: number; rumor: number };
  /** Largest number of simultaneous spreaders of each item. */
  peak: { fact: number; rumor: number };
}

/**
 * Draws the rumour world's network and tick-0 seeds exactly as `worlds/rumor` does for the
 * same `n` and seed (same generator, same named streams), without building the world.
 */
export function buildRumorSetup(p: RumorSetupParams): RumorSetup {
  const rng = new RngStreams(p.seed);
  const spec = { kind: 'watts-strogatz', n: p.n, k: p.k ?? 10, beta: p.beta ?? 0.1 } as const;
  const topology = generateNetwork(spec, rng.stream('network'));
  if (!(topology instanceof CsrTopology)) throw new Error('watts-strogatz did not return a CSR topology');
  const taken = new Set<number>();
  const insiders = pickDistinct(p.insiders ?? 5, p.n, rng, 'insiders', taken);
  const spreaders = pickDistinct(p.spreaders ?? 5, p.n, rng, 'spreaders', taken);
  return { topology, insiders, spreaders, agentKey: rng.stepRng('agent').purposeKey };
}

const IGNORANT = 0;
const SPREADER = 1;
const STIFLER = 2;
const FACT = 0;
const RUMOR = 1;
/** Message code = kind | item. */
const ACK = 2;
const GOLDEN = 0x9e3779b9;
const TWO_POW_32 = 4294967296;

/** A flat, growable queue of (to, from, code) triples: no object per message. */
class MessageQueue {
  data = new Int32Array(3 * 4096);
  length = 0;

  push(to: number, from: number, code: number): void {
    let o = 3 * this.length;
    if (o === this.data.length) {
      const grown = new Int32Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[o++] = to;
    this.data[o++] = from;
    this.data[o] = code;
    this.length++;
  }
}

/**
 * A hand-written, typed-array Daley-Kendall (or Maki-Thompson) rumour model with the same semantics as
 * `worlds/rumor` (simultaneous update, latency 1, tell/ack messages: `contact=delayed`, inboxes in send
 * order, agents stepped in index order). It also uses the engine's counter-based draws,
 * so on the same setup it reproduces the engine's ticks and deliveries exactly.
 */
export class RumorBaseline {
  private readonly n: number;
  private readonly offsets: Int32Array;
  private readonly nbrs: Int32Array;
  /** Per item: state, tellings heard, first teller, first tick (index item * n + agent). */
  private readonly state: Uint8Array;
  private readonly heard: Int32Array;
  private readonly src: Int32Array;
  private readonly at: Int32Array;
  private readonly count: Int32Array;
  private readonly start: Int32Array;
  private order = new Int32Array(4096);
  private touched = new Int32Array(4096);
  private active: Int32Array;
  private nextActive: Int32Array;
  private activeLength = 0;
  private inbox = new MessageQueue();
  private outbox = new MessageQueue();
  private readonly spreaders = [0, 0];
  private readonly aware = [0, 0];
  private readonly peak = [0, 0];
  private steps = 0;
  private deliveries = 0;

  /**
   * @param model `maki-thompson`: a spreader told again keeps spreading (only the teller who
   * meets someone who already knew stops); `daley-kendall` (default): it stops too.
   */
  constructor(
    private readonly setup: RumorSetup,
    private readonly model: 'daley-kendall' | 'maki-thompson' = 'daley-kendall',
  ) {
    const n = setup.topology.size;
    this.n = n;
    this.offsets = setup.topology.offsets;
    this.nbrs = setup.topology.neighbours;
    this.state = new Uint8Array(2 * n);
    this.heard = new Int32Array(2 * n);
    this.src = new Int32Array(2 * n).fill(-1);
    this.at = new Int32Array(2 * n).fill(-1);
    this.count = new Int32Array(n);
    this.start = new Int32Array(n);
    this.active = new Int32Array(n);
    this.nextActive = new Int32Array(n);
    for (const i of setup.insiders) this.plant(i, FACT);
    for (const i of setup.spreaders) this.plant(i, RUMOR);
    const seeded = Int32Array.from(new Set([...setup.insiders, ...setup.spreaders])).sort();
    this.active.set(seeded);
    this.activeLength = seeded.length;
  }

  private plant(i: number, item: number): void {
    const x = item * this.n + i;
    this.state[x] = SPREADER;
    this.src[x] = i;
    this.at[x] = 0;
    this.spreaders[item]++;
    this.aware[item]++;
  }

  /** Runs until no agent spreads and no message is in flight, or `maxTicks`. */
  run(maxTicks = 1000): BaselineResult {
    let tick = 0;
    let reason: BaselineResult['reason'] = 'max-ticks';
    while (tick < maxTicks) {
      tick++;
      this.tick(tick);
      if (this.activeLength === 0 && this.inbox.length === 0) {
        reason = 'extinct';
        break;
      }
    }
    return {
      reason,
      ticks: tick,
      steps: this.steps,
      deliveries: this.deliveries,
      aware: { fact: this.aware[FACT], rumor: this.aware[RUMOR] },
      peak: { fact: this.peak[FACT], rumor: this.peak[RUMOR] },
    };
  }

  /** One tick: index last tick's sends by recipient, step every due agent in index order. */
  private tick(t: number): void {
    const touched = this.release();
    const active = this.active;
    const activeLength = this.activeLength;
    this.activeLength = 0;
    let a = 0;
    let r = 0;
    while (a < activeLength || r < touched) {
      const x = a < activeLength ? active[a] : 0x7fffffff;
      const y = r < touched ? this.touched[r] : 0x7fffffff;
      if (x <= y) a++;
      if (y <= x) r++;
      this.step(Math.min(x, y), t);
    }
    [this.active, this.nextActive] = [this.nextActive, this.active];
    [this.inbox, this.outbox] = [this.outbox, this.inbox];
    this.outbox.length = 0;
    for (let item = 0; item < 2; item++)
      if (this.spreaders[item] > this.peak[item]) this.peak[item] = this.spreaders[item];
  }

  /** Counting sort of the inbox queue by recipient (stable: send order); returns #recipients. */
  private release(): number {
    const q = this.inbox;
    const rows = q.length;
    const data = q.data;
    const count = this.count;
    if (this.order.length < rows) {
      this.order = new Int32Array(2 * rows);
      this.touched = new Int32Array(2 * rows);
    }
    let t = 0;
    for (let r = 0; r < rows; r++) {
      const to = data[3 * r];
      if (count[to]++ === 0) this.touched[t++] = to;
    }
    const touched = this.touched.subarray(0, t).sort();
    let offset = 0;
    for (let k = 0; k < t; k++) {
      const i = touched[k];
      this.start[i] = offset;
      offset += count[i];
      count[i] = 0;
    }
    for (let r = 0; r < rows; r++) {
      const to = data[3 * r];
      this.order[this.start[to] + count[to]++] = r;
    }
    return t;
  }

  /** Agent `i`'s step: its whole inbox, then one telling per item it spreads. */
  private step(i: number, t: number): void {
    this.steps++;
    const got = this.count[i];
    if (got > 0) {
      const data = this.inbox.data;
      const base = this.start[i];
      for (let k = 0; k < got; k++) {
        const row = 3 * this.order[base + k];
        this.receive(i, data[row + 1], data[row + 2], t);
      }
      this.count[i] = 0;
      this.deliveries += got;
    }
    const n = this.n;
    const fact = this.state[i] === SPREADER;
    const rumor = this.state[n + i] === SPREADER;
    if (!fact && !rumor) return;
    const key = mix32(mix32(this.setup.agentKey ^ mix32(i + GOLDEN)) ^ Math.imul(t + 1, 0x85ebca6b));
    let draws = 0;
    if (fact) this.tell(i, FACT, key, ++draws);
    if (rumor) this.tell(i, RUMOR, key, ++draws);
    this.nextActive[this.activeLength++] = i;
  }

  /** Tells one uniformly random neighbour (the engine's k-th counter-based draw). */
  private tell(i: number, item: number, key: number, k: number): void {
    const start = this.offsets[i];
    const degree = this.offsets[i + 1] - start;
    if (degree === 0) return;
    const u = mix32(key ^ mix32(Math.imul(k, GOLDEN))) / TWO_POW_32;
    this.outbox.push(this.nbrs[start + Math.floor(u * degree)], i, item);
  }

  private receive(i: number, from: number, code: number, t: number): void {
    const item = code & 1;
    const x = item * this.n + i;
    const s = this.state[x];
    if (code & ACK) {
      if (s === SPREADER) this.stifle(x, item);
      return;
    }
    // First telling: provenance (a seeded agent keeps its own: it knew before anyone told it).
    if (++this.heard[x] === 1 && this.at[x] < 0) {
      this.src[x] = from;
      this.at[x] = t;
      this.aware[item]++;
    }
    if (s === IGNORANT) {
      if (item === RUMOR && this.state[i] !== IGNORANT) this.state[x] = STIFLER;
      else {
        this.state[x] = SPREADER;
        this.spreaders[item]++;
      }
      return;
    }
    this.outbox.push(from, i, ACK | item);
    if (s === SPREADER && this.model === 'daley-kendall') this.stifle(x, item);
  }

  private stifle(x: number, item: number): void {
    this.state[x] = STIFLER;
    this.spreaders[item]--;
  }

  /** Bytes of typed arrays the model holds per agent (network excluded). */
  bytesPerAgent(): number {
    return (this.state.byteLength + 3 * this.heard.byteLength) / this.n + 4 * 4;
  }
}
