import type { CsrTopology } from './csr-topology.ts';

/** A network read from a file or a graphology graph: the topology and each agent's label. */
export interface LoadedNetwork {
  /** The network over agents 0..size-1. */
  topology: CsrTopology;
  /** `labels[i]` is the node key or label of agent i in the source (length = size). */
  labels: string[];
}
