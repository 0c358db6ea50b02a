// The opinion world wrapped so that each tick's metrics and every agent's rate are checked
// against scans of the opinions at the same moment (the voter's counted metrics and rates:
// test/worlds/opinion/voter-counts.test.ts, voter-fork.test.ts).
import type { WorldDefinition, WorldView } from '../../src/index.ts';
import { world } from '../../worlds/opinion/index.ts';
import { countClusters } from '../../worlds/opinion/metrics.ts';
import { discordantShare } from '../../worlds/opinion/voter-discordance.ts';

const opinion = world as unknown as WorldDefinition;

/** Metrics computed by scanning every opinion, as version 1.1.0 did. */
function scanned(view: WorldView, clusterGap: number): Record<string, number> {
  const x = Array.from(view.memoryColumn('x'));
  const dx = Array.from(view.memoryColumn('dx'));
  const mean = x.reduce((s, v) => s + v, 0) / x.length;
  return {
    mean,
    variance: x.reduce((s, v) => s + (v - mean) ** 2, 0) / x.length,
    min: Math.min(...x),
    max: Math.max(...x),
    clusters: countClusters(x, clusterGap),
    maxDelta: view.tick === 0 ? 0 : Math.max(...dx),
  };
}

/** The opinion world, checking each tick's metrics and every agent's rate against scans. */
export function checked(problems: string[]): WorldDefinition {
  return {
    ...opinion,
    create: (setup) => {
      const instance = opinion.create(setup);
      const metrics = instance.metrics!;
      const rate = instance.activation?.rate;
      return {
        ...instance,
        metrics: (view, last) => {
          const m = metrics(view, last);
          const want = scanned(view, 1e-3);
          for (const [k, v] of Object.entries(want))
            if (Math.abs(m[k] - v) > 1e-12) problems.push(`tick ${view.tick}: ${k} ${m[k]}, scan ${v}`);
          for (let i = 0; rate && i < view.size; i++)
            if (rate(i, view) !== discordantShare(i, view))
              problems.push(
                `tick ${view.tick}: rate of ${i} ${rate(i, view)}, scan ${discordantShare(i, view)}`,
              );
          return m;
        },
      };
    },
  };
}
