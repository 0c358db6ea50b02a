// Runs the built CLI (bin/grapevine.mjs) under /usr/bin/time for the benchmarks that time
// whole processes (sweep.ts, fork-batch-pool.ts): wall from this process, CPU and peak RSS
// of the child from time's report.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Whole-process usage of one CLI run. */
export interface Usage {
  wall: number;
  /** User + system CPU seconds. */
  cpu: number;
  rssMb: number;
}

const BIN = resolve('bin/grapevine.mjs');

/** Runs `grapevine ...args` under /usr/bin/time (its report in `outDir/<tag>.time`); resolves to stdout and usage, rejects on a non-zero exit. */
export function timedCli(outDir: string, args: string[], tag: string): Promise<Usage & { stdout: string }> {
  const file = join(outDir, `${tag}.time`);
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    const c = spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', file, process.execPath, BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d) => {
      stdout += d;
    });
    c.stderr.on('data', (d) => {
      stderr += d;
    });
    c.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      const [u, s, kb] = readFileSync(file, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
      if (code !== 0) fail(new Error(`${tag} failed: ${stderr}`));
      else done({ stdout, wall, cpu: u + s, rssMb: kb / 1024 });
    });
  });
}
