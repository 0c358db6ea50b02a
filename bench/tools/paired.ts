/**
 * Whole-process timing of one command, or of two in turn (A B A B ...), each run under GNU
 * time (`/usr/bin/time`, Debian package `time`): wall from this process, user + system CPU
 * and peak RSS from the kernel's accounting of the finished child. Prints min / median / max
 * of each figure and, for two commands, the A / B ratios taken pair by pair (a machine whose
 * speed drifts during the call moves both sides of a pair alike).
 *
 *   npx tsx bench/tools/paired.ts [-n 11] [--warmup 1] -- node bin/grapevine.mjs run rumor ...
 *   npx tsx bench/tools/paired.ts -n 11 --vs "node OTHER/bin/grapevine.mjs run rumor ..." -- node bin/grapevine.mjs run rumor ...
 *
 * `--vs` is one string split on spaces (no shell quoting); the commands' output is discarded.
 * A run whose exit code is not `--expect-exit` (default 0; e.g. 2 to time a start-up that
 * stops at a refused argument) stops the call with its stderr.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const TIME = '/usr/bin/time';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    n: { type: 'string', short: 'n', default: '5' },
    warmup: { type: 'string', default: '1' },
    vs: { type: 'string' },
    'expect-exit': { type: 'string', default: '0' },
  },
});
const runs = Number(values.n);
const warmup = Number(values.warmup);
const expectExit = Number(values['expect-exit']);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`-n must be an integer >= 1, got ${values.n}`);
if (!Number.isInteger(warmup) || warmup < 0)
  throw new Error(`--warmup must be an integer >= 0, got ${values.warmup}`);
if (positionals.length === 0)
  throw new Error('give the command after --, e.g. -- node bin/grapevine.mjs --version');
if (!existsSync(TIME)) throw new Error(`${TIME} is missing: install GNU time (apt-get install time)`);

interface Sample {
  wall: number;
  cpu: number;
  peakMiB: number;
}

const dir = mkdtempSync(join(tmpdir(), 'paired-'));
const timeFile = join(dir, 'time.txt');

function once(cmd: string[]): Sample {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(TIME, ['-f', '%U %S %M', '-o', timeFile, ...cmd], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== expectExit)
    throw new Error(
      `${cmd.join(' ')} exited ${r.status} (expected ${expectExit}): ${String(r.stderr).slice(-1000)}`,
    );
  const [user, sys, kb] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { wall, cpu: user + sys, peakMiB: kb / 1024 };
}

const a = positionals;
const b = values.vs?.split(' ').filter((w) => w !== '');
const samples: { a: Sample[]; b: Sample[] } = { a: [], b: [] };
try {
  for (let i = 0; i < warmup; i++) {
    once(a);
    if (b) once(b);
  }
  for (let i = 0; i < runs; i++) {
    samples.a.push(once(a));
    if (b) samples.b.push(once(b));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const spread = (xs: number[], digits: number): string => {
  const s = [...xs].sort((x, y) => x - y);
  const f = (x: number) => x.toFixed(digits);
  return `${f(s[0]).padStart(10)} ${f(s[Math.floor(s.length / 2)]).padStart(10)} ${f(s[s.length - 1]).padStart(10)}`;
};
console.log(`${runs} runs${b ? ' of each, in turn' : ''}, after ${warmup} warm-up${b ? ' pair' : ''}(s)`);
console.log(`${''.padEnd(14)} ${'min'.padStart(10)} ${'median'.padStart(10)} ${'max'.padStart(10)}`);
for (const [side, xs] of b
  ? ([
      ['A', samples.a],
      ['B', samples.b],
    ] as const)
  : ([['A', samples.a]] as const)) {
  console.log(
    `${`${side} wall s`.padEnd(14)} ${spread(
      xs.map((x) => x.wall),
      3,
    )}`,
  );
  console.log(
    `${`${side} cpu s`.padEnd(14)} ${spread(
      xs.map((x) => x.cpu),
      3,
    )}`,
  );
  console.log(
    `${`${side} peak MiB`.padEnd(14)} ${spread(
      xs.map((x) => x.peakMiB),
      1,
    )}`,
  );
}
if (b)
  for (const key of ['wall', 'cpu'] as const)
    console.log(
      `${`A/B ${key}`.padEnd(14)} ${spread(
        samples.a.map((x, i) => x[key] / samples.b[i][key]),
        4,
      )}`,
    );
