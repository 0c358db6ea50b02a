import { ConfigError, formatBytes, type MemoryBudget, memoryBudget } from '../core/index.ts';

/**
 * Bytes per agent each executor holds while a run goes on, at least, besides the network.
 * Measured as the slope of live memory (heap, external and array buffers after a full GC,
 * sampled every 100 ms) between two population sizes of a rumour run that spreads to every
 * agent (Node 20), the network's arrays taken out: columnar 137 bytes per agent between
 * 2.5·10^5 and 10^6 agents (174 to 183 between 2·10^5 and 8·10^5); xstate 3,071 to 3,297
 * between 2,000 and 20,000 (its actors and their snapshots). The figures below sit under
 * them; test/world/run-memory.test.ts measures the slopes again.
 */
export const EXECUTOR_BYTES_PER_AGENT = { columnar: 128, xstate: 2560 } as const;

/**
 * Bytes per agent and tick a world that calls an LLM holds, at least: its prompts, replies and
 * memory streams and the records of its calls. town-square held 28 to 41 KB per resident and
 * tick between 20 and 80 residents (4 ticks), 47 to 60 KB between 40 and 320 (its square is
 * seen by everyone, so the cost per resident grows with the town).
 */
export const LLM_BYTES_PER_AGENT_TICK = 24 * 1024;

/** What a built world holds that the estimate counts. */
export interface RunShape {
  size: number;
  executor: keyof typeof EXECUTOR_BYTES_PER_AGENT;
  /** Bytes of the network's arrays (already built). */
  networkBytes: number;
  /** Whether the world calls an LLM. */
  llm: boolean;
  /** The run's maximum ticks. */
  ticks: number;
}

/** A lower bound of the memory a run of this shape needs (see the constants above). */
export function estimateShapeBytes(s: RunShape): number {
  const agents = s.size * EXECUTOR_BYTES_PER_AGENT[s.executor];
  const llm = s.llm ? s.size * s.ticks * LLM_BYTES_PER_AGENT_TICK : 0;
  return s.networkBytes + agents + llm;
}

/**
 * Refuses, once the world is built and before its agents are, a run whose lower-bound
 * estimate exceeds the memory budget: the executor's bytes per agent, the network as built,
 * and for an LLM world its bytes per agent and tick over the maximum ticks.
 * @throws ConfigError naming the estimate, its parts and the budget.
 */
export function checkShapeFits(s: RunShape, budget: MemoryBudget = memoryBudget()): void {
  const need = estimateShapeBytes(s);
  if (need <= budget.bytes) return;
  const llm = s.llm
    ? ` and ${formatBytes(LLM_BYTES_PER_AGENT_TICK)} per agent and tick of LLM state over ${s.ticks} ticks`
    : '';
  throw new ConfigError(
    `${s.size} agents on the ${s.executor} executor need at least ${formatBytes(need)} (${EXECUTOR_BYTES_PER_AGENT[s.executor]} bytes each${llm}, the network ${formatBytes(s.networkBytes)}); this run has ${formatBytes(budget.bytes)} (${budget.source})`,
    {
      hint: s.llm
        ? 'run fewer agents or fewer ticks, or give the run more memory (GRAPEVINE_MEMORY_LIMIT)'
        : 'run fewer agents, use executor=columnar where the world offers it, or give the run more memory',
    },
  );
}
