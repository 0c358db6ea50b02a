import louvainModule from 'graphology-communities-louvain';
import seedrandom from 'seedrandom';
import { type Topology, toGraphology } from '../network/index.ts';
import type { FinalState } from './final-state.ts';

/** A partition of the agents into communities, and where it came from. */
export interface Communities {
  /** `sbm-blocks` (the network's own blocks) or `louvain` (detected). */
  method: 'sbm-blocks' | 'louvain';
  /** Community of each agent (0..count-1). */
  of: Int32Array;
  count: number;
  /** Louvain's modularity of the partition (null for blocks). */
  modularity: number | null;
}

// The package is CommonJS (`module.exports = fn`): under NodeNext its typed default is the
// module object, while Node hands the function itself.
const louvain = louvainModule as unknown as (typeof louvainModule)['default'];

/** Largest population Louvain is run on in a report (it holds a graphology copy of the network). */
export const LOUVAIN_MAX_AGENTS = 200_000;

/** The consecutive blocks of a stochastic block model, from its block sizes. */
export function sbmBlocks(sizes: readonly number[]): Communities {
  const n = sizes.reduce((s, x) => s + x, 0);
  const of = new Int32Array(n);
  let i = 0;
  sizes.forEach((size, b) => {
    of.fill(b, i, i + size);
    i += size;
  });
  return { method: 'sbm-blocks', of, count: sizes.length, modularity: null };
}

/**
 * Communities detected by Louvain (graphology-communities-louvain, Blondel et al. 2008) on
 * the network, with its random choices drawn from a seedrandom stream seeded by `seed`, so
 * a report is the same on every build. Community ids are renumbered by first agent.
 */
export function louvainCommunities(network: Topology, seed: number): Communities {
  const graph = toGraphology(network);
  const result = louvain.detailed(graph, { rng: seedrandom(`louvain:${seed}`) });
  const renumber = new Map<number, number>();
  const of = new Int32Array(network.size);
  for (let i = 0; i < network.size; i++) {
    const c = result.communities[String(i)];
    if (!renumber.has(c)) renumber.set(c, renumber.size);
    of[i] = renumber.get(c)!;
  }
  return { method: 'louvain', of, count: renumber.size, modularity: result.modularity };
}

/** Who knew which of two items at the snapshot, in one community. */
export interface CommunityKnowledge {
  community: number;
  size: number;
  onlyA: number;
  onlyB: number;
  both: number;
  neither: number;
}

/**
 * Information asymmetry per community at the snapshot: how many agents of each community
 * had heard only `a`, only `b`, both or neither (heard = an `at_<item>` tick is set).
 */
export function communityAsymmetry(
  state: FinalState,
  communities: Communities,
  a: string,
  b: string,
): CommunityKnowledge[] {
  const atA = state.slots.get(`at_${a}`);
  const atB = state.slots.get(`at_${b}`);
  if (!atA || !atB) throw new Error(`no provenance slots for ${a} and ${b}`);
  const rows: CommunityKnowledge[] = Array.from({ length: communities.count }, (_, community) => ({
    community,
    size: 0,
    onlyA: 0,
    onlyB: 0,
    both: 0,
    neither: 0,
  }));
  for (let i = 0; i < state.size; i++) {
    const r = rows[communities.of[i]];
    const ka = atA[i] >= 0;
    const kb = atB[i] >= 0;
    r.size++;
    if (ka && kb) r.both++;
    else if (ka) r.onlyA++;
    else if (kb) r.onlyB++;
    else r.neither++;
  }
  return rows;
}
