import { SeededStream } from '../core/index.ts';
import type { FaultKind, ResolvedLocalServerOptions } from './serve-llm-options.ts';

/** What happens to one chat completion request. */
export interface FaultDraw {
  /** The injected fault, or `null` for a normal reply. */
  fault: FaultKind | null;
  /** Delay before answering (or failing), in ms. */
  delayMs: number;
}

type FaultOptions = Pick<
  ResolvedLocalServerOptions,
  'seed' | 'faultRate' | 'faultKinds' | 'latencyMs' | 'latencyJitterMs'
>;

/**
 * Draws the fate of each chat completion request from one seeded stream
 * (`<seed>|local-llm-server`), in arrival order. Every request takes exactly three draws
 * (fault or not, which fault, latency jitter), so that changing the fault rate never shifts
 * the latency sequence. The same seed and the same request order give the same faults.
 */
export class FaultInjector {
  private readonly stream: SeededStream;

  constructor(private readonly opts: FaultOptions) {
    this.stream = new SeededStream(`${opts.seed}|local-llm-server`);
  }

  /** The fate of the next request. */
  draw(): FaultDraw {
    const uFault = this.stream.next();
    const uKind = this.stream.next();
    const uJitter = this.stream.next();
    const { faultRate, faultKinds, latencyMs, latencyJitterMs } = this.opts;
    const fault = uFault < faultRate ? faultKinds[Math.floor(uKind * faultKinds.length)] : null;
    return { fault, delayMs: latencyMs + uJitter * latencyJitterMs };
  }
}
