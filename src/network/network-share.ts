import { canonicalJson, type Rng, SeededStream, type StreamState } from '../core/index.ts';
import type { NetworkSpec } from './network-spec.ts';
import type { Topology } from './topology.ts';

/** The share that {@link networkFromParams} consults, while one is active. */
let active: NetworkShare | undefined;

/**
 * Networks built once and reused by later runs of the same process (the children of a fork
 * batch build the same network R times otherwise: ~30 ms at 10^5 agents, ~0.4 s at 10^6).
 * A network is reused only for the same generator spec drawn from a {@link SeededStream}
 * in the same state, and the stream is then left in the state the generator left it in,
 * so a run sees exactly what it would have built: the same topology (generators are
 * deterministic in spec and stream, and topologies are read-only) and the same later draws.
 * Active only inside {@link NetworkShare.during}; the networks are freed with the share.
 */
export class NetworkShare {
  private readonly built = new Map<string, { topology: Topology; after: StreamState }>();

  /** Runs `fn` with this share active (nested calls restore the share that was active before). */
  async during<T>(fn: () => Promise<T>): Promise<T> {
    const before = active;
    active = this;
    try {
      return await fn();
    } finally {
      active = before;
    }
  }

  /** Builds (once) the network `spec` draws from `rng`. */
  network(spec: NetworkSpec, rng: SeededStream, build: () => Topology): Topology {
    const key = canonicalJson({ spec, state: rng.state() });
    const hit = this.built.get(key);
    if (hit) {
      rng.setState(hit.after);
      return hit.topology;
    }
    const topology = build();
    this.built.set(key, { topology, after: rng.state() });
    return topology;
  }
}

/** The network `spec` draws from `rng`: built by `build`, or reused from the active {@link NetworkShare}. */
export function sharedNetwork(spec: NetworkSpec, rng: Rng, build: () => Topology): Topology {
  return active && rng instanceof SeededStream ? active.network(spec, rng, build) : build();
}
