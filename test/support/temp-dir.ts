// The one way tests make a temporary folder: under the system's temp folder, named after what
// it holds, and removed after the test file that made it (the setup file
// test/support/remove-temp-dirs.ts calls removeTempDirs once each file's tests are done).
// GRAPEVINE_KEEP_TEMP=1 keeps them, to look at what a failed test wrote.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh folder `<tmp>/grapevine-<label>-XXXXXX`, removed after the current test file. */
export function tempDir(label = 'test'): string {
  const dir = mkdtempSync(join(tmpdir(), `grapevine-${label}-`));
  made.push(dir);
  return dir;
}

/** Removes every folder {@link tempDir} made since the last call (kept under GRAPEVINE_KEEP_TEMP=1). */
export async function removeTempDirs(): Promise<void> {
  const dirs = made.splice(0);
  if (process.env.GRAPEVINE_KEEP_TEMP === '1') return;
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
}
