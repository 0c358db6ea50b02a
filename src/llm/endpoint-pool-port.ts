import { LlmCallError, type LlmErrorKind } from './llm-errors.ts';
import type { LlmPort, LlmReply, LlmRequest } from './port.ts';

/** One member of an {@link EndpointPoolPort}: a name safe to show (a URL without secrets) and its client. */
export interface PoolEndpoint {
  name: string;
  port: LlmPort;
}

/** Options of an {@link EndpointPoolPort}. */
export interface EndpointPoolOptions {
  /** Pool calls a failed endpoint sits out after its first failure (default 8); doubled after each further failure. */
  sitOutCalls?: number;
  /** Cap of the sit-out, in pool calls (default 1024). */
  maxSitOutCalls?: number;
}

/** How one endpoint is doing. */
export interface PoolEndpointStats {
  name: string;
  /** Calls under way on it now. */
  outstanding: number;
  /** Calls it answered. */
  served: number;
  /** Failures that made the pool move on to another endpoint. */
  failures: number;
  /** True while it sits out (taken out after a failure, not yet probed again). */
  out: boolean;
}

/** Failures that are the endpoint's, not the request's: another endpoint may answer. */
const ENDPOINT_FAULTS: ReadonlySet<LlmErrorKind> = new Set(['connection', 'http-5xx', 'timeout']);

interface Member {
  name: string;
  port: LlmPort;
  index: number;
  outstanding: number;
  served: number;
  failures: number;
  /** Consecutive failures (0 when healthy). */
  streak: number;
  /** Pool call number from which it is tried first again. */
  backAt: number;
}

/**
 * Spreads calls over several OpenAI-compatible endpoints serving the same model: each call
 * goes to the endpoint with the fewest calls under way (ties: the first listed). When an
 * endpoint fails with a connection error, a 5xx or a timeout, the call moves on to the
 * next endpoint at once and the failed one is taken out: it is tried only after every
 * healthy one until `sitOutCalls` more pool calls have started (doubled after each further
 * failure, capped), then probed again. The schedule counts calls, not time.
 *
 * The move to another endpoint happens below the retrying layer, so it leaves no trace in
 * the reply or its attempts: the recorded reply, and so the run's digest, is the same
 * whichever endpoint answered (the endpoints must serve the same model deterministically).
 * Only when every endpoint failed is the last failure thrown, for the retry layer to see.
 * A 429 moves on without taking the endpoint out; other failures (4xx, malformed) are the
 * request's and are thrown as they are.
 */
export class EndpointPoolPort implements LlmPort {
  private readonly members: Member[];
  private readonly sitOut: number;
  private readonly maxSitOut: number;
  private calls = 0;

  constructor(endpoints: readonly PoolEndpoint[], options: EndpointPoolOptions = {}) {
    if (endpoints.length === 0) throw new RangeError('an endpoint pool needs at least one endpoint');
    this.members = endpoints.map((e, index) => ({
      ...e,
      index,
      outstanding: 0,
      served: 0,
      failures: 0,
      streak: 0,
      backAt: 0,
    }));
    this.sitOut = options.sitOutCalls ?? 8;
    this.maxSitOut = options.maxSitOutCalls ?? 1024;
  }

  /** Each endpoint's calls under way, answered and failed, and whether it sits out. */
  stats(): PoolEndpointStats[] {
    return this.members.map((m) => ({
      name: m.name,
      outstanding: m.outstanding,
      served: m.served,
      failures: m.failures,
      out: m.backAt > this.calls,
    }));
  }

  async complete(request: LlmRequest): Promise<LlmReply> {
    const call = ++this.calls;
    let last: LlmCallError | undefined;
    for (const m of this.order(call)) {
      m.outstanding++;
      try {
        const reply = await m.port.complete(request);
        m.served++;
        m.streak = 0;
        m.backAt = 0;
        return reply;
      } catch (err) {
        if (!(err instanceof LlmCallError) || !movesOn(err)) throw err;
        last = err;
        m.failures++;
        if (err.kind !== 'http-429') this.takeOut(m);
      } finally {
        m.outstanding--;
      }
    }
    throw last;
  }

  /** Every endpoint once: the healthy ones by fewest calls under way, then those sitting out, soonest back first. */
  private order(call: number): Member[] {
    return [...this.members].sort((a, b) => {
      const outA = a.backAt > call;
      const outB = b.backAt > call;
      if (outA !== outB) return outA ? 1 : -1;
      if (outA && a.backAt !== b.backAt) return a.backAt - b.backAt;
      return a.outstanding - b.outstanding || a.index - b.index;
    });
  }

  private takeOut(m: Member): void {
    m.streak++;
    m.backAt = this.calls + Math.min(this.maxSitOut, this.sitOut * 2 ** (m.streak - 1));
  }
}

function movesOn(err: LlmCallError): boolean {
  return ENDPOINT_FAULTS.has(err.kind) || err.kind === 'http-429';
}
