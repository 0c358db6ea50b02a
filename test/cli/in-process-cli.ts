// The CLI run in the test's own process: `main` (what bin/grapevine.mjs runs) with the same
// built-in worlds, stdout and stderr captured. For cases about what a command decides (an
// exit code, an error line, the log it writes), not about the process itself (signals, a
// crash's output, start-up): those spawn the CLI (run-cli.ts). A CLI process costs ~0.3 CPU-s
// of start-up. Calls must not overlap (the capture is process-wide): use `it`, not
// `it.concurrent`.
import { vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { BUILTIN_CONTRIBUTIONS } from '../../worlds/index.ts';

/** What an in-process command did. */
export interface InProcessOutcome {
  code: number;
  stdout: string;
  stderr: string;
  /**
   * Resources (servers, sockets, child processes, workers, timers) that the command left
   * open: in a real process these keep it alive after its error line (the hang of issue 15,
   * case 9), so a refused command must leave none.
   */
  leaked: string[];
}

/** `after` minus `before`, as multisets of resource kinds. */
function opened(before: readonly string[], after: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const k of before) left.set(k, (left.get(k) ?? 0) + 1);
  const out: string[] = [];
  for (const k of after) {
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(k);
  }
  return out;
}

/** What the command still holds once closing callbacks have had up to ~1 s to run. */
async function leakedSince(before: readonly string[]): Promise<string[]> {
  let left = opened(before, process.getActiveResourcesInfo());
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    left = opened(before, process.getActiveResourcesInfo());
  }
  return left;
}

let busy = false;

/** `grapevine ...args` in this process. */
export async function cliInProcess(args: readonly string[]): Promise<InProcessOutcome> {
  if (busy) throw new Error('cliInProcess: calls overlap (use it, not it.concurrent)');
  busy = true;
  let stdout = '';
  let stderr = '';
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    stderr += String(s);
    return true;
  });
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    stdout += String(s);
    return true;
  });
  const before = process.getActiveResourcesInfo();
  try {
    const code = await main([...args], BUILTIN_CONTRIBUTIONS);
    return { code, stdout, stderr, leaked: await leakedSince(before) };
  } finally {
    err.mockRestore();
    out.mockRestore();
    busy = false;
  }
}
