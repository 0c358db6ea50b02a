// vitest global setup: tests that spawn the CLI run the compiled one (bin/grapevine.mjs ->
// dist/), so dist/ must hold the current sources. When any source is newer than the last
// build (or dist/ is missing), this builds once before the tests start. `npm test` builds
// first anyway; this keeps `npx vitest run test/cli/...` honest after an edit.
// GRAPEVINE_SKIP_BUILD=1 skips it (npm run test:unit: the lower floors spawn no CLI).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCES = ['src', 'worlds', 'agents', 'web', 'tsconfig.json', 'tsconfig.build.json', 'scripts'];

function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

/** Builds dist/ when it is older than the sources. */
export function setup(): void {
  if (process.env.GRAPEVINE_SKIP_BUILD) return;
  const stamp = join(ROOT, 'dist', '.built');
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((p) => newest(join(ROOT, p))));
  if (built >= sources) return;
  process.stderr.write('dist/ is older than the sources: building (node scripts/build.mjs)\n');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
}
