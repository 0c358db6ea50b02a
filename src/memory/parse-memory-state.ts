import { LogFormatError } from '../core/index.ts';
import { MEMORY_KINDS, type MemoryEntry, type MemoryStreamState } from './memory-entry.ts';

/**
 * Checks that `value` (e.g. parsed from a snapshot) is a valid {@link MemoryStreamState}:
 * entries with integer ids in strictly ascending order below `nextId`, finite ticks, known
 * kinds, string texts and sources, integer importance in 1..10. Returns it typed; throws a
 * LogFormatError naming the first problem.
 */
export function parseMemoryState(value: unknown): MemoryStreamState {
  const fail = (what: string): never => {
    throw new LogFormatError(
      `invalid memory stream: ${what}`,
      {},
      { hint: 'the snapshot is corrupt or from another version' },
    );
  };
  if (!isRecord(value)) return fail('not an object');
  const { nextId, entries } = value;
  if (!(Number.isInteger(nextId) && (nextId as number) >= 0)) return fail('nextId is not an integer >= 0');
  if (!Array.isArray(entries)) return fail('entries is not an array');
  let previous = -1;
  entries.forEach((e: unknown, i) => {
    const problem = entryProblem(e, previous, nextId as number);
    if (problem) fail(`entries[${i}]: ${problem}`);
    previous = (e as MemoryEntry).id;
  });
  return value as MemoryStreamState;
}

function entryProblem(e: unknown, previousId: number, nextId: number): string | null {
  if (!isRecord(e)) return 'not an object';
  if (!Number.isInteger(e.id) || (e.id as number) <= previousId || (e.id as number) >= nextId)
    return 'id is not an integer above the previous id and below nextId';
  if (!Number.isFinite(e.t)) return 't is not a finite number';
  if (!MEMORY_KINDS.includes(e.kind as MemoryEntry['kind'])) return `unknown kind ${String(e.kind)}`;
  if (typeof e.text !== 'string') return 'text is not a string';
  const imp = e.importance as number;
  if (!(Number.isInteger(imp) && imp >= 1 && imp <= 10)) return 'importance is not an integer in 1..10';
  if (e.source !== undefined && typeof e.source !== 'string') return 'source is not a string';
  return null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
