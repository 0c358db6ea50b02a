// The one way tests start the grapevine CLI as a user would: the compiled CLI
// (bin/grapevine.mjs -> dist/, rebuilt by the vitest global setup when stale) in a real child
// process, with real exit codes, no inherited LLM settings, a kill timeout, and at most as
// many children in flight per test worker as the machine has cores (each child is CPU bound).
// Cases about what a command decides rather than about the process run it in-process
// (cli-in-process.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/** What a CLI subprocess did. */
export interface CliOutcome {
  /** Exit code; null when it was ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when it did not exit within the timeout (it was then killed). */
  hung: boolean;
}

/** The compiled CLI's entry point of this checkout. */
export const BIN = resolve('bin/grapevine.mjs');

/** Options of {@link cli}. */
export interface CliOptions {
  /**
   * Kill the process (and report `hung`) after this many ms. The default, 10 minutes, is only
   * a backstop (a loaded machine can make a healthy run slow); a test of a hang sets its own.
   */
  timeoutMs?: number;
  /** Working directory (default: the test process's). */
  cwd?: string;
  /** Variables added to (or, when undefined, removed from) the child's environment. */
  env?: Record<string, string | undefined>;
  /** The entry point to run instead of this checkout's (e.g. an installed package's bin). */
  bin?: string;
  /** Options of node itself, before the entry point (e.g. a V8 flag). */
  nodeArgs?: readonly string[];
  /** Called once the process has started (to send it signals). */
  onSpawn?: (child: ChildProcess) => void;
  /** A child that runs until stopped (a queue worker): started outside the slot limit. */
  longLived?: boolean;
}

/**
 * Environment variables that would point the CLI at another endpoint, key or model: never
 * inherited. GRAPEVINE_CACHE_DIR is not one of them: it is the test run's shared type-check
 * cache (test/support/shared-type-check-cache.ts).
 */
export const LLM_ENV = /^(OPENAI_|GRAPEVINE_(?!CACHE_DIR$))/;

/** The test process's environment without any LLM settings, without colour, plus `extra`. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!LLM_ENV.test(k)) env[k] = v;
  Object.assign(env, { FORCE_COLOR: '0' }, extra);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

/** Children in flight at most in this test worker (vitest runs several workers side by side). */
const MAX_CHILDREN = Math.max(2, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(task: () => Promise<T>): Promise<T> {
  while (running >= MAX_CHILDREN) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await task();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Runs `node bin/grapevine.mjs ...args` as a subprocess; never waits past the timeout.
 * `longLived` children (servers, queue workers that run until stopped) do not take one of
 * the worker's slots, or they would starve the commands that talk to them.
 */
export function cli(args: readonly string[], opts: CliOptions = {}): Promise<CliOutcome> {
  return opts.longLived ? spawnOnce(args, opts) : slot(() => spawnOnce(args, opts));
}

function spawnOnce(args: readonly string[], opts: CliOptions): Promise<CliOutcome> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.bin ?? BIN, ...args], {
      cwd: opts.cwd,
      env: cleanEnv(opts.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 600_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, hung });
    });
    opts.onSpawn?.(child);
  });
}

/** The last line of a command's stdout parsed as JSON (its `--json` summary); throws unless it exited 0. */
export function jsonOf(
  args: readonly string[],
  r: { code: number | null; stdout: string; stderr: string },
): Record<string, unknown> {
  if (r.code !== 0) throw new Error(`grapevine ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as Record<string, unknown>;
}

/** `grapevine ...args --json` in a child process: its summary; throws unless it exited 0. */
export async function cliJson(
  args: readonly string[],
  opts: CliOptions = {},
): Promise<Record<string, unknown>> {
  return jsonOf(args, await cli([...args, '--json'], opts));
}

/** True when the text holds something like a stack trace. */
export function hasStack(text: string): boolean {
  return /\n\s+at .+[:(]/.test(text) || /^\s+at /m.test(text);
}
