import type { Topology } from '../network/index.ts';
import type { RunAnalysis } from './analyze-log.ts';
import {
  type Communities,
  type CommunityKnowledge,
  communityAsymmetry,
  LOUVAIN_MAX_AGENTS,
  louvainCommunities,
  sbmBlocks,
} from './communities.ts';
import type { Figure } from './figures.ts';
import type { FinalState } from './final-state.ts';

/** The prompt audit of an LLM run, as the report shows it (see `grapevine audit`). */
export interface PromptAuditSummary {
  prompts: number;
  /** Private texts found in a prompt that the world's visibility rules allow. */
  declared: number;
  /** Private texts found in a prompt after the caller had observed them in a message. */
  observed: number;
  /** Private texts no rule and no observation explains. */
  leaks: { seq: number; tick: number; caller: number; owner: number; kind: string }[];
  /** Set when the log could not be audited (e.g. a --log minimal log holds no prompts). */
  error?: string;
}

/** The report's table of a prompt audit. */
export function auditFigure(audit: PromptAuditSummary): Figure {
  const caption = audit.error
    ? `The prompts were not audited: ${audit.error}`
    : `Every prompt recorded in the log's "llm" events checked for another agent's private text (goals, secrets), as grapevine audit does: ${audit.prompts} prompts; ${audit.declared} mentions allowed by the world's visibility rules, ${audit.observed} after the caller had observed the text, ${audit.leaks.length} leaks (listed, first 50).`;
  return {
    id: 'prompt-audit',
    title: audit.error ? 'Prompt audit: not run' : `Prompt audit: ${audit.leaks.length} leaks`,
    caption,
    table: {
      columns: ['seq', 'tick', 'caller', 'owner', 'kind'],
      rows: audit.leaks.slice(0, 50).map((l) => [l.seq, l.tick, l.caller, l.owner, l.kind]),
    },
  };
}

function share(x: number, n: number): number | null {
  return n ? Math.round((x / n) * 1000) / 1000 : null;
}

/**
 * The report's table of information asymmetry per community (the 30 largest communities),
 * at the snapshot tick.
 */
export function communityFigure(
  c: Communities,
  rows: readonly CommunityKnowledge[],
  a: string,
  b: string,
  tick: number | null,
): Figure {
  const how =
    c.method === 'louvain'
      ? `communities detected by Louvain (graphology-communities-louvain, Blondel et al. 2008; seeded by the run's seed, modularity ${c.modularity?.toFixed(3)})`
      : "the network's stochastic-block-model blocks";
  const top = [...rows].sort((p, q) => q.size - p.size || p.community - q.community).slice(0, 30);
  return {
    id: `asymmetry-communities-${a}-${b}`,
    title: `Who has heard ${a} and ${b}, per community`,
    caption: `Share of each community's agents who had heard only ${a}, only ${b}, both or neither by tick ${tick} (at_<item> memory slots of the snapshot), over ${c.count} ${how}; the 30 largest communities, largest first.`,
    table: {
      columns: ['community', 'agents', `only ${a}`, `only ${b}`, 'both', 'neither'],
      rows: top.map((r) => [
        r.community,
        r.size,
        share(r.onlyA, r.size),
        share(r.onlyB, r.size),
        share(r.both, r.size),
        share(r.neither, r.size),
      ]),
    },
  };
}

/**
 * The communities a report groups agents by: the blocks of a stochastic block model when
 * the run's parameters give them (`network: 'stochastic-block-model'`, `sizes`), else Louvain
 * on the network up to {@link LOUVAIN_MAX_AGENTS} agents; null without a drawn network.
 */
export function reportCommunities(
  network: Topology | undefined,
  params: Record<string, unknown>,
  seed: number,
): Communities | null {
  const sizes = params.sizes;
  if (params.network === 'stochastic-block-model' && Array.isArray(sizes) && sizes.every(Number.isInteger))
    return sbmBlocks(sizes as number[]);
  if (!network || network.kind === 'complete' || network.size > LOUVAIN_MAX_AGENTS) return null;
  return louvainCommunities(network, seed);
}

/** Per-community asymmetry tables, one per pair of items with provenance. */
export function communityFigures(
  a: RunAnalysis,
  state: FinalState | null,
  communities: Communities | null,
): Figure[] {
  if (!state || !communities || communities.of.length !== state.size) return [];
  return a.asymmetry.map((x) =>
    communityFigure(communities, communityAsymmetry(state, communities, x.a, x.b), x.a, x.b, a.snapshotTick),
  );
}
