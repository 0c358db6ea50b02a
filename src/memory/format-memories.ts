import type { MemoryEntry } from './memory-entry.ts';

/** Renders one memory as one prompt line. */
export type MemoryFormatter = (entry: MemoryEntry) => string;

/** Whitespace runs (newlines included) as one space, so a memory can never forge extra lines. */
function oneLine(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}

/**
 * The default prompt line of a memory: `- [t=12] Alice said: ...` for an observation with a
 * source, `- [t=12] ...` without one, `- [t=12] (you) ...` for an action and
 * `- [t=12] (reflection) ...` for a reflection. Newlines in the text become spaces.
 */
export function formatMemory(entry: MemoryEntry): string {
  const text = oneLine(entry.text);
  const head = `- [t=${entry.t}]`;
  switch (entry.kind) {
    case 'action':
      return `${head} (you) ${text}`;
    case 'reflection':
      return `${head} (reflection) ${text}`;
    default:
      return entry.source === undefined
        ? `${head} ${text}`
        : `${head} ${oneLine(entry.source)} said: ${text}`;
  }
}

/** The memories as prompt lines, in the order given, joined by newlines. */
export function formatMemories(
  entries: readonly MemoryEntry[],
  format: MemoryFormatter = formatMemory,
): string {
  return entries.map(format).join('\n');
}
