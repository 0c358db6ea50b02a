// `cliInProcess` with the checks every in-process case of the fork and Sotopia suites makes:
// the command left no resource open and no signal handler behind (files of a worker share
// this process, isolate: false), and any environment variables it was given are restored.
import { expect } from 'vitest';
import { cliInProcess } from './in-process-cli.ts';

/** What an in-process command did. */
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
  /** Environment variables set (or, when undefined, removed) for the command only. */
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
  const saved = Object.entries(opts.env ?? {}).map(([k, v]) => {
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
