import { freemem } from 'node:os';
import { ConfigError } from '../core/index.ts';

/** Bytes a message of an exported batch takes (its object and its JSON), a generous average. */
const BYTES_PER_MESSAGE = 400;

/** Share of the free memory a snapshot may take (the rest is for encoding its lines and the run itself). */
const MEMORY_SHARE = 0.8;

/** What an exported bus state holds: delivery rows (each one recipient and one message index) and messages. */
export interface BusStateCount {
  /** Delivery rows in flight (all pending batches and the waiting inbox). */
  rows: number;
  /** Messages those rows point to. */
  messages: number;
  /** The tick the state is taken at (for the error message). */
  tick: number;
}

/**
 * Estimated bytes of {@link MessageBus.exportState}'s output: the two base64 columns (4
 * characters per 3 bytes; V8 keeps these long strings outside its heap, one byte per
 * character) and the messages as objects.
 */
export function estimateBusStateBytes(c: BusStateCount): number {
  const columnBytes = 2 * 4 * c.rows;
  return 4 * Math.ceil(columnBytes / 3) + BYTES_PER_MESSAGE * c.messages;
}

/**
 * Bytes a snapshot may still take: {@link MEMORY_SHARE} of the memory the system has
 * available now (or the process's cgroup limit less what it holds, if lower), or less
 * when `GRAPEVINE_MEMORY_LIMIT` (bytes; for tests and shared machines) is set lower.
 */
export function snapshotMemoryBudget(env: NodeJS.ProcessEnv = process.env): number {
  const constrained = process.constrainedMemory?.() ?? 0;
  const left =
    constrained > 0 ? Math.max(0, constrained - process.memoryUsage.rss()) : Number.POSITIVE_INFINITY;
  const free = Math.min(freemem(), left) * MEMORY_SHARE;
  const text = env.GRAPEVINE_MEMORY_LIMIT;
  const limit = text === undefined || text.trim() === '' ? Number.NaN : Number(text);
  return Number.isFinite(limit) && limit > 0 ? Math.min(free, limit) : free;
}

/**
 * Refuses, before any of it is built, a bus state (the deliveries in flight at a snapshot)
 * that would not fit in the memory left: the run would otherwise be killed for lack of
 * memory half-way through writing its log.
 * @throws ConfigError (exit 2) saying how much the snapshot needs and how much is free.
 */
export function checkBusStateFits(c: BusStateCount, budget = snapshotMemoryBudget()): void {
  const need = estimateBusStateBytes(c);
  if (need <= budget) return;
  throw new ConfigError(
    `the ${c.rows} deliveries in flight at tick ${c.tick} need about ${bytesText(need)} to snapshot; only ${bytesText(budget)} of memory can be spared`,
    { hint: 'run fewer agents, a sparser network, a lower spreading probability or fewer ticks' },
  );
}

/** `n` bytes as a short text: 512 B, 3.4 MiB, 2.10 GiB. */
function bytesText(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}
