import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../../../src/index.ts';
import { type EpisodeLog, episodeLogSchema } from '../episode-log.ts';

/** One EpisodeLog record and where it came from (`file:line` or `file:index`). */
export interface LocatedEpisodeLog {
  where: string;
  record: EpisodeLog;
  /** The record re-serialised (JSON.stringify of the parsed value), for its digest. */
  text: string;
}

/** A bad record: where, and what is wrong. */
interface Problem {
  where: string;
  what: string;
}

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : 'record'}: ${i.message}`)
    .join('; ');
}

function check(where: string, value: unknown, out: LocatedEpisodeLog[], problems: Problem[]): void {
  const r = episodeLogSchema.safeParse(value);
  if (r.success) out.push({ where, record: r.data, text: JSON.stringify(value) });
  else problems.push({ where, what: describe(r.error) });
}

/**
 * The records of one file: a JSON object, a JSON array (located `file:index`, 0-based) or
 * JSON Lines (located `file:line`, 1-based; blank lines skipped).
 */
function readOne(file: string, out: LocatedEpisodeLog[], problems: Problem[]): void {
  const text = readFileSync(file, 'utf8');
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    whole = undefined;
  }
  if (Array.isArray(whole)) {
    for (const [k, v] of whole.entries()) check(`${file}:${k}`, v, out, problems);
    return;
  }
  if (whole !== undefined) {
    check(file, whole, out, problems);
    return;
  }
  for (const [k, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      problems.push({ where: `${file}:${k + 1}`, what: `not JSON (${(e as Error).message})` });
      continue;
    }
    check(`${file}:${k + 1}`, value, out, problems);
  }
}

/** The files behind `path`: itself, or a directory's regular files in code-unit order (not recursive). */
function filesOf(path: string): string[] {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    throw new ConfigError(`--from-episodes ${path}: no such file or directory`, {
      hint: 'give an EpisodeLog JSON / JSON Lines file or a directory of them',
    });
  }
  if (!st.isDirectory()) return [path];
  return readdirSync(path)
    .filter((f) => !f.startsWith('.'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((f) => join(path, f))
    .filter((f) => statSync(f).isFile());
}

/**
 * Reads Sotopia EpisodeLog records from a file or a directory (see {@link episodeLogSchema}).
 * Every record is validated before anything is returned.
 *
 * @throws ConfigError (exit 2) naming each bad record by file:line or file:index and what
 * is wrong (the first five), or when there is no record at all.
 */
export function readEpisodeLogs(path: string): LocatedEpisodeLog[] {
  const out: LocatedEpisodeLog[] = [];
  const problems: Problem[] = [];
  for (const f of filesOf(path)) readOne(f, out, problems);
  if (problems.length > 0) {
    const shown = problems
      .slice(0, 5)
      .map((p) => `${p.where}: ${p.what}`)
      .join(' | ');
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    throw new ConfigError(`bad EpisodeLog record${problems.length > 1 ? 's' : ''}: ${shown}${more}`, {
      hint: 'each record needs Sotopia EpisodeLog fields: environment, agents (2), messages, reasoning, rewards (one per agent), rewards_prompt',
    });
  }
  if (out.length === 0)
    throw new ConfigError(`--from-episodes ${path}: no EpisodeLog record found`, {
      hint: 'give a JSON object, a JSON array or JSON Lines of EpisodeLog records',
    });
  return out;
}
