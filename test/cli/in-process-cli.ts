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
  try {
    return { code: await main([...args], BUILTIN_CONTRIBUTIONS), stdout, stderr };
  } finally {
    err.mockRestore();
    out.mockRestore();
    busy = false;
  }
}
