import { ConfigError, formatBytes, type MemoryBudget, memoryBudget } from '../core/index.ts';

/**
 * Bytes the engine keeps per tick it runs, at least: each tick's metrics object stays in the
 * run's history (for `summary` and snapshots). An empty object and its slot in the history
 * array take about 66 bytes in V8 (Node 20, measured with `process.memoryUsage()` over 10^6
 * ticks); five numeric metrics about 107.
 */
export const MIN_HISTORY_BYTES_PER_TICK = 64;

/**
 * Refuses, before a run starts, a maximum tick count whose history alone could not fit in
 * the memory budget (see `MemoryBudget`): `ticks` × {@link MIN_HISTORY_BYTES_PER_TICK}.
 * A world that stops early never uses its maximum; one that does not would end in a native
 * out-of-memory crash instead of this one line.
 * @throws ConfigError naming the limit and the budget.
 */
export function checkTicksFit(ticks: number, budget: MemoryBudget = memoryBudget()): void {
  if (!Number.isSafeInteger(ticks) || ticks < 0)
    throw new ConfigError(`ticks must be a non-negative integer, got ${ticks}`, {
      hint: 'e.g. --ticks 1000',
    });
  const most = Math.floor(budget.bytes / MIN_HISTORY_BYTES_PER_TICK);
  if (ticks <= most) return;
  throw new ConfigError(
    `ticks=${ticks} is more than this run's memory can follow: each tick keeps at least ${MIN_HISTORY_BYTES_PER_TICK} bytes of history, so ${formatBytes(budget.bytes)} (${budget.source}) allows at most ${most} ticks`,
    { hint: `give --ticks ${most} or fewer (the run still stops earlier when its world stops)` },
  );
}
