// vitest global setup: one type-check cache for the whole test run. A world file's passed
// type check is remembered by its content and the engine's types (src/cli/world-type-gate.ts),
// so the same world text, run by several test files (each in its own temp folder), is
// type-checked cold once per run instead of once per file. The folder is fresh each run and
// removed after it: the tests never read or write the user's own cache (~/.cache/grapevine),
// and a run's time does not depend on what an earlier run left there. Spawned CLIs get it
// through cleanEnv (test/support/cli.ts), in-process commands through this environment;
// tests about the cache itself (cold against warm, reuse by content) pass a folder of their own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Points GRAPEVINE_CACHE_DIR at a fresh folder; the returned teardown removes it. */
export function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'grapevine-test-cache-'));
  process.env.GRAPEVINE_CACHE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
