// The CLI run in the test's own process: `main` (what bin/grapevine.mjs runs) with the same
// built-in worlds, stdout and stderr captured. For cases about what a command decides (an
// exit code, an error line, the log it writes), not about the process itself (signals, a
// crash's output, start-up): those spawn the CLI (cli.ts). `cliChecked` also checks that the
// command left no resource open and no signal handler behind (files of a worker share this
// process, isolate: false), and restores the environment variables it was given; like a
// spawned CLI, the command sees no OPENAI_* or GRAPEVINE_* variable of the test process. A
// CLI process costs ~0.3 CPU-s of start-up. Calls must not overlap (the capture is process-wide): use `it`, not
// `it.concurrent`.
import { expect, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { BUILTIN_CONTRIBUTIONS } from '../../worlds/index.ts';
import { jsonOf, LLM_ENV } from './cli.ts';

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

/** What a checked in-process command did. */
export interface CheckedOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link cliChecked}. */
export interface CheckedOptions {
  /** Resource kinds the command may leave open (default: none). */
  allowLeaked?: string[];
  /**
   * The local LLM server the command talks to: it may also leave open the LLM client's idle
   * keep-alive connections to it (one TCP socket each), no more than the server took.
   */
  llm?: { stats(): { connections: number } };
  /**
   * Environment variables set (or, when undefined, removed) for the command only. As for a
   * spawned CLI (`cleanEnv`), the test process's `OPENAI_*` and `GRAPEVINE_*` variables are
   * not seen by the command, and FORCE_COLOR is 0.
   */
  env?: Record<string, string | undefined>;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** `grapevine ...args` in this process, checked; calls must not overlap. */
export async function cliChecked(
  args: readonly string[],
  opts: CheckedOptions = {},
): Promise<CheckedOutcome> {
  const listeners = () => SIGNALS.map((s) => process.listenerCount(s));
  const handlers = listeners();
  const inherited = Object.keys(process.env).filter((k) => LLM_ENV.test(k));
  const given = {
    ...Object.fromEntries(inherited.map((k) => [k, undefined])),
    FORCE_COLOR: '0',
    ...opts.env,
  };
  const saved = Object.entries(given).map(([k, v]) => {
    const old = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    return [k, old] as const;
  });
  try {
    const r = await cliInProcess(args);
    const what = `grapevine ${args.join(' ')}`;
    const sockets = opts.llm ? r.leaked.filter((k) => k === 'TCPSocketWrap') : [];
    expect(sockets.length, `${what} left more sockets than its LLM server took`).toBeLessThanOrEqual(
      opts.llm?.stats().connections ?? 0,
    );
    const leaked = opts.llm ? r.leaked.filter((k) => k !== 'TCPSocketWrap') : r.leaked;
    expect(leaked, `${what} left resources open`).toEqual(opts.allowLeaked ?? []);
    expect(listeners(), `${what} left signal handlers`).toEqual(handlers);
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  } finally {
    for (const [k, old] of saved) {
      if (old === undefined) delete process.env[k];
      else process.env[k] = old;
    }
  }
}

/** `grapevine ...args --json` in this process, checked ({@link cliChecked}): its summary; throws unless it exited 0. */
export async function cliCheckedJson(
  args: readonly string[],
  opts: CheckedOptions = {},
): Promise<Record<string, unknown>> {
  return jsonOf(args, await cliChecked([...args, '--json'], opts));
}
