import { readFileSync } from 'node:fs';

/** Exit code and output of one CLI command (in a child process or in this one). */
export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One parsed log line. */
export type LogEvent = Record<string, unknown> & { type: string; seq: number; t: number };

/** All lines of an (uncompressed) NDJSON log, parsed. */
export function events(path: string): LogEvent[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as LogEvent);
}

/** The `llm` lines of a log. */
export interface LlmLine extends LogEvent {
  caller: string;
  tick: number;
  purpose: string;
  reply: { text: string } | null;
  error?: { kind: string; message: string };
  /** Always empty in new logs: the failed attempts are under `wall`, outside the digest. */
  attempts: { error: string; backoffMs: number }[];
  /** Always false in new logs: a cache hit is marked by `wall.cached`, outside the digest. */
  cached: boolean;
  wall: { latencyMs: number; attempts?: { error: string; backoffMs: number }[]; cached?: true };
}

/** The `llm` lines of a log. */
export function llmLines(path: string): LlmLine[] {
  return events(path).filter((e) => e.type === 'llm') as LlmLine[];
}

/**
 * What a run did, without its LLM recordings: each tick's metrics and state hash, and the
 * end summary.
 */
export function outcomeOf(path: string): { ticks: unknown[]; summary: unknown } {
  const all = events(path);
  const end = all.find((e) => e.type === 'end');
  return {
    ticks: all.filter((e) => e.type === 'tick').map((e) => ({ t: e.t, metrics: e.metrics, state: e.state })),
    summary: end?.summary,
  };
}

/** Parses a `--json` summary of `run`. */
export function summaryOf(r: Outcome): Record<string, unknown> & {
  digest: string;
  llm: Record<string, number>;
} {
  if (r.code !== 0) throw new Error(`run failed (exit ${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A small town-square run writing a full log to `out` against `url`. */
export function townArgs(out: string, url: string, ...extra: string[]): string[] {
  return [
    'run',
    'town-square',
    '--set',
    'agents=6',
    '--ticks',
    '4',
    '--log',
    'full',
    '--json',
    '--out',
    out,
    '--llm-base-url',
    url,
    ...extra,
  ];
}
