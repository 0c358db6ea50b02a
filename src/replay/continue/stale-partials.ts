import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../../core/index.ts';

/**
 * Removes the temporary files that a killed `resume` or `fork` of `out` left beside it
 * (`<out>.partial-<pid>[.gz]`, `<out>.partial-<pid>[.gz].tmp-<pid>`, `<out>.tmp-<pid>`)
 * when the process that wrote them is gone. Returns the paths removed.
 */
export function removeStalePartials(out: string): string[] {
  const dir = dirname(out);
  const base = basename(out);
  const pattern = /^\.(?:partial|tmp)-(\d+)(?:\.gz)?(?:\.tmp-(\d+))?$/;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(base)) continue;
    const m = pattern.exec(name.slice(base.length));
    if (!m) continue;
    const pids = [Number(m[1]), ...(m[2] ? [Number(m[2])] : [])];
    if (pids.some((p) => p === process.pid || processAlive(p))) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(join(dir, name));
  }
  return removed;
}
