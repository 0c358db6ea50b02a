import seedrandom from 'seedrandom';
import { fnv1a32 } from './hash.ts';

/** A source of uniform random numbers with the draws simulation code needs. */
export abstract class Rng {
  /** Uniform in [0, 1). */
  abstract next(): number;

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Exponential waiting time with the given rate (mean 1 / rate). */
  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }

  /** A uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Fisher-Yates shuffle in place; returns the same array. */
  shuffle<T>(items: T[] | Int32Array): T[] | Int32Array {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }
}

/** Serialisable state of a {@link SeededStream}. */
export interface StreamState {
  seed: string;
  alea: { c: number; s0: number; s1: number; s2: number };
}

/**
 * A stateful seeded stream (seedrandom's Alea). Its state is plain JSON, so it can be
 * snapshotted and restored exactly.
 */
export class SeededStream extends Rng {
  private prng: seedrandom.StatefulPRNG<seedrandom.State.Alea>;
  /** The seed string this stream was derived from. */
  readonly seed: string;

  constructor(seed: string, state?: StreamState['alea']) {
    super();
    this.seed = seed;
    this.prng = seedrandom.alea(seed, state ? { state } : { state: true });
  }

  override next(): number {
    return this.prng.double();
  }

  /** The stream's state as plain JSON. */
  state(): StreamState {
    return { seed: this.seed, alea: this.prng.state() };
  }

  /**
   * Puts this stream at a state {@link SeededStream.state} gave for a stream of the same seed.
   * @throws RangeError when the state is another seed's.
   */
  setState(state: StreamState): void {
    if (state.seed !== this.seed)
      throw new RangeError(`stream state of seed ${state.seed}, not ${this.seed}`);
    this.prng = seedrandom.alea(state.seed, { state: state.alea });
  }

  /** Recreates a stream from {@link SeededStream.state}. */
  static restore(state: StreamState): SeededStream {
    return new SeededStream(state.seed, state.alea);
  }
}

/** Wellons' lowbias32 integer hash: a bijective 32-bit mixer with low bias. */
export function mix32(x: number): number {
  return mix32i(x) >>> 0;
}

/**
 * {@link mix32} as a signed 32-bit integer (the same bits). Hot paths keep their hashes in
 * this form: V8 holds a signed 32-bit value as a small integer, while an unsigned one of 2^31
 * or more is a heap number, allocated wherever it leaves optimised code (a call that is not
 * inlined, a field, code not yet optimised).
 */
export function mix32i(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  return x ^ (x >>> 16);
}

const GOLDEN = 0x9e3779b9;
const TWO_POW_32 = 4294967296;

/**
 * A counter-based generator for agent decisions: the k-th draw of agent `a` at tick `t`
 * is a pure function of (purpose key, a, t, k). It keeps no per-agent state, so a
 * million agents cost nothing to seed, a snapshot needs no RNG state, and adding an
 * agent never shifts another agent's draws. One instance is re-aimed with {@link at}
 * for each step (no allocation on the hot path). Resolution is 2^-32.
 */
export class StepRng extends Rng {
  private stepKey = 0;
  private counter = 0;

  /** @param purposeKey 32-bit key of the (run seed, purpose) pair. */
  constructor(public purposeKey: number) {
    super();
  }

  /** Re-keys the stream (a reseeded future); every later draw changes. */
  rekey(purposeKey: number): void {
    this.purposeKey = purposeKey >>> 0;
  }

  /**
   * Positions the stream at the start of agent `agent`'s draws for `tick`. `sub` > 0 gives
   * another independent stream of the same (agent, tick): a second step in one tick, or
   * one encounter of that step. `sub` 0 is the stream every earlier version used.
   */
  at(agent: number, tick: number, sub = 0): this {
    // signed (mix32i): the same bits as mix32's, kept as a small integer (no heap number per step)
    let key = mix32i(mix32i(this.purposeKey ^ mix32i(agent + GOLDEN)) ^ Math.imul(tick + 1, 0x85ebca6b));
    if (sub !== 0) key = mix32i(key ^ mix32i(Math.imul(sub, 0xc2b2ae35) ^ GOLDEN));
    this.stepKey = key;
    this.counter = 0;
    return this;
  }

  override next(): number {
    this.counter++;
    return mix32(this.stepKey ^ mix32i(Math.imul(this.counter, GOLDEN))) / TWO_POW_32;
  }
}

/**
 * Derives every random stream of a run from its seed. Streams are keyed by
 * (run seed, purpose, agent), so that draws for one purpose or agent never depend on
 * how many draws another made.
 */
export class RngStreams {
  constructor(readonly seed: number | string) {}

  /** A stateful stream for a purpose (and optionally one agent), e.g. `network`, `turn-order`. */
  stream(purpose: string, agent?: number | string): SeededStream {
    return new SeededStream(`${this.seed}|${purpose}|${agent ?? '*'}`);
  }

  /** A counter-based generator for per-agent, per-tick draws of a purpose. */
  stepRng(purpose: string): StepRng {
    const seeded = new SeededStream(`${this.seed}|${purpose}|step`);
    return new StepRng((fnv1a32(purpose) ^ Math.floor(seeded.next() * TWO_POW_32)) >>> 0);
  }
}
