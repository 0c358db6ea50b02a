import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

/** The compiled CLI's entry point of this checkout. */
export const BIN = resolve('bin/grapevine.mjs');

/** What a CLI process did. */
export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node <bin> ...args` in `cwd` as a user would (real process, real exit code). */
export function spawnCli(args: readonly string[], cwd: string, bin = BIN): Promise<CliOutcome> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd, env: { ...process.env, FORCE_COLOR: '0' }, maxBuffer: 1 << 24 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}
