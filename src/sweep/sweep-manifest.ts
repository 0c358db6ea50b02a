import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, type Json, UsageError } from '../core/index.ts';
import type { SweepSpec } from './sweep-spec.ts';

/** The format tag of a sweep folder's `sweep.json`. */
export const SWEEP_FORMAT = 'grapevine-sweep/1';

/** What identifies a sweep: its spec and its world (id, version, source with a file's sha256). */
export interface SweepManifest {
  format: string;
  spec: SweepSpec;
  world: { id: string; version: string; source: Json };
  runs: number;
  /** The model of a sweep of a world that needs an LLM (absent for rule worlds). */
  llm?: { model: string };
}

/**
 * Writes `<dir>/sweep.json`, or checks that the one already there describes the same
 * sweep (a rerun resumes it).
 *
 * @throws UsageError (exit 2) when the folder holds another sweep, or a sweep.json that is not one.
 */
export function claimSweepDir(dir: string, manifest: SweepManifest): void {
  const path = join(dir, 'sweep.json');
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path)) {
    writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
    return;
  }
  let old: unknown;
  try {
    old = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new UsageError(`${path} is not a sweep manifest`, { hint: 'choose another --out folder' });
  }
  if (canonicalJson(old) !== canonicalJson(JSON.parse(JSON.stringify(manifest))))
    throw new UsageError(`${dir} holds another sweep (its sweep.json differs from this one)`, {
      hint: 'rerun the same sweep to resume it, or choose another --out folder',
    });
}
