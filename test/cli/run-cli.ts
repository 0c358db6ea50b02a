import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

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

const BIN = resolve('bin/grapevine.mjs');

/** Options of {@link cli}. */
export interface CliOptions {
  /** Kill the process (and report `hung`) after this many ms (default 60 s). */
  timeoutMs?: number;
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Called once the process has started (to send it signals). */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
}

/** Runs `node bin/grapevine.mjs ...args` as a subprocess; never waits past the timeout. */
export function cli(args: readonly string[], opts: CliOptions = {}): Promise<CliOutcome> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, FORCE_COLOR: '0', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, hung });
    });
    opts.onSpawn?.(child);
  });
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'grapevine-rel-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** True when the text holds something like a stack trace. */
export function hasStack(text: string): boolean {
  return /\n\s+at .+[:(]/.test(text) || /^\s+at /m.test(text);
}
