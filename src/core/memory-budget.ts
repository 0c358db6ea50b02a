import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { ConfigError } from './errors.ts';

/**
 * The memory a run may use, and where that figure comes from. One rule for every check
 * (a population before it is built, deliveries in flight as they grow, a snapshot):
 *
 * 1. `GRAPEVINE_MEMORY_LIMIT` when set (bytes, or a number with a K, M, G or T suffix,
 *    powers of 1024), for tests and shared machines;
 * 2. otherwise the process's cgroup memory limit when it has one below the machine's memory
 *    (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`);
 * 3. otherwise the machine's total memory (`os.totalmem()`): a stable figure, unlike the
 *    memory free at one moment, so that whether a run is accepted does not depend on what
 *    else happens to run beside it.
 */
export interface MemoryBudget {
  /** Bytes a run may use. */
  bytes: number;
  /** Where {@link MemoryBudget.bytes} comes from, for error messages. */
  source: 'GRAPEVINE_MEMORY_LIMIT' | 'cgroup limit' | 'total memory' | 'given';
}

/** The cgroup files that hold a memory limit (v2, then v1), read in this order. */
export const CGROUP_LIMIT_FILES: readonly string[] = [
  '/sys/fs/cgroup/memory.max',
  '/sys/fs/cgroup/memory/memory.limit_in_bytes',
];

const SUFFIX: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

/**
 * Parses a `GRAPEVINE_MEMORY_LIMIT` value: a positive number of bytes, optionally followed by
 * K, M, G or T (powers of 1024, an optional `B` or `iB` after it, any case).
 * @throws ConfigError (exit 2) on anything else.
 */
export function parseMemoryLimit(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  const bytes = m ? Math.floor(Number(m[1]) * SUFFIX[m[2].toUpperCase()]) : Number.NaN;
  if (!Number.isFinite(bytes) || bytes < 1)
    throw new ConfigError(`GRAPEVINE_MEMORY_LIMIT must be a number of bytes, got ${JSON.stringify(text)}`, {
      hint: 'e.g. GRAPEVINE_MEMORY_LIMIT=8G or 8589934592; unset it to use the machine memory',
    });
  return bytes;
}

/** The limit in a cgroup memory file's text, or undefined for `max`, an empty or unreadable value. */
export function parseCgroupLimit(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The first memory limit found in `files` (see {@link CGROUP_LIMIT_FILES}), or undefined. */
export function readCgroupLimit(files: readonly string[] = CGROUP_LIMIT_FILES): number | undefined {
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const limit = parseCgroupLimit(text);
    if (limit !== undefined) return limit;
  }
  return undefined;
}

/** Where {@link memoryBudget} looks (each may be replaced, for tests). */
export interface MemoryBudgetSources {
  env?: NodeJS.ProcessEnv;
  cgroupFiles?: readonly string[];
  total?: number;
}

/**
 * The memory budget of this process, by the rule of {@link MemoryBudget}.
 * @throws ConfigError (exit 2) when `GRAPEVINE_MEMORY_LIMIT` is set to something else than a size.
 */
export function memoryBudget(sources: MemoryBudgetSources = {}): MemoryBudget {
  const text = (sources.env ?? process.env).GRAPEVINE_MEMORY_LIMIT;
  if (text !== undefined && text.trim() !== '')
    return { bytes: parseMemoryLimit(text), source: 'GRAPEVINE_MEMORY_LIMIT' };
  const total = sources.total ?? totalmem();
  const cgroup = readCgroupLimit(sources.cgroupFiles);
  if (cgroup !== undefined && cgroup < total) return { bytes: cgroup, source: 'cgroup limit' };
  return { bytes: total, source: 'total memory' };
}

/** `n` bytes as a short text: 512 B, 3.4 KiB, 2.10 GiB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}
