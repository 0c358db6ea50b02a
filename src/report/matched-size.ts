import { treeStats } from './cascade-stats.ts';
import type { ItemCascades } from './cascades.ts';

/** Mean structure of one item's cascades at one matched size. */
export interface MatchedRow {
  item: string;
  /** Number of cascades that enter the mean. */
  cascades: number;
  meanDepth: number | null;
  meanMaxBreadth: number | null;
  meanVirality: number | null;
}

/** Items compared at one cascade size. */
export interface MatchedSize {
  /** `prefix`: every cascade that reached k agents, cut to its first k; `bin`: whole cascades with k <= size < 10k. */
  kind: 'prefix' | 'bin';
  k: number;
  rows: MatchedRow[];
}

type Tree = { parent: Int32Array; n: number };

function row(item: string, trees: Tree[]): MatchedRow {
  const stats = trees.map((t) => treeStats(t.parent, t.n));
  const mean = (f: (s: (typeof stats)[number]) => number | null): number | null => {
    const v = stats.map(f).filter((x): x is number => x !== null);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  return {
    item,
    cascades: trees.length,
    meanDepth: mean((s) => s.depth),
    meanMaxBreadth: mean((s) => s.maxBreadth),
    meanVirality: mean((s) => s.virality),
  };
}

/**
 * Compares items' cascade structure at matched size, after Juul & Ugander (2021, PNAS
 * 118(46)): depth, breadth and structural virality all grow with size, so differences
 * between items that differ in size say little about how they spread. Two matchings, for
 * k = 10, 100, 1000...: `prefix` cuts every cascade that reached k agents to its first k
 * (in order of first hearing), `bin` takes whole cascades of size k to 10k - 1. Sizes
 * that no two items share are left out.
 */
export function compareAtMatchedSize(items: readonly ItemCascades[]): MatchedSize[] {
  const largest = Math.max(0, ...items.flatMap((x) => x.cascades.map((c) => c.nodes.length)));
  const out: MatchedSize[] = [];
  for (let k = 10; k <= largest; k *= 10) {
    for (const kind of ['prefix', 'bin'] as const) {
      const rows = items.map((x) => {
        const fit = x.cascades.filter((c) =>
          kind === 'prefix' ? c.nodes.length >= k : c.nodes.length >= k && c.nodes.length < 10 * k,
        );
        return row(
          x.item,
          fit.map((c) => ({ parent: c.parent, n: kind === 'prefix' ? k : c.nodes.length })),
        );
      });
      if (rows.filter((r) => r.cascades > 0).length >= 2) out.push({ kind, k, rows });
    }
  }
  return out;
}
