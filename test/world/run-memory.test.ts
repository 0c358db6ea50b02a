// The memory budget's model of a run (src/world/run-memory.ts), measured again: each
// executor's bytes per agent, and an LLM world's bytes per agent and tick, as the slope of
// live memory between two sizes of a real CLI run (a preload samples heap, external and array
// buffers after a full GC every 100 ms). The model must stay a lower bound of the slope, and
// not fall below a quarter of it (a model that low would let through runs that cannot fit).
// Then the runs of issue 30 that peaked far above their budget are refused before they start.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXECUTOR_BYTES_PER_AGENT, LLM_BYTES_PER_AGENT_TICK } from '../../src/world/index.ts';
import { BIN, cleanEnv, cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('run-memory');
const PRELOAD = join(dir, 'live-memory.cjs');
writeFileSync(
  PRELOAD,
  `let peak = 0;
const sample = () => { global.gc(); const m = process.memoryUsage(); peak = Math.max(peak, m.heapUsed + m.external + m.arrayBuffers); };
setInterval(sample, 100).unref();
process.on('exit', () => { sample(); process.stderr.write('\\nlive=' + peak + '\\n'); });
`,
);

/** The peak live memory of one CLI run, in bytes. */
function livePeak(args: readonly string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--expose-gc', '-r', PRELOAD, BIN, ...args], {
      env: cleanEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.on('close', (code) => {
      const m = /live=(\d+)/.exec(err);
      if (code !== 0 || !m) fail(new Error(`run failed (${code}): ${err}`));
      else done(Number(m[1]));
    });
  });
}

const out = (name: string) => ['--quiet', '--force', '--out', join(dir, `${name}.ndjson`)];

describe('the memory model, measured at two sizes', { timeout: 600_000 }, () => {
  it.each([
    ['columnar', 200_000, 800_000],
    ['xstate', 2_000, 8_000],
  ] as const)('%s: bytes per agent between the two sizes', async (executor, small, large) => {
    const run = (n: number) =>
      livePeak([
        'run',
        'rumor',
        '--set',
        `n=${n}`,
        '--set',
        `executor=${executor}`,
        ...out(`${executor}-${n}`),
      ]);
    const a = await run(small);
    const b = await run(large);
    // the network (watts-strogatz, k = 10: 40 bytes of CSR arcs per agent) is counted apart
    const slope = (b - a) / (large - small) - 40;
    const model = EXECUTOR_BYTES_PER_AGENT[executor];
    expect(slope, `measured ${slope.toFixed(0)} B/agent`).toBeGreaterThanOrEqual(model);
    expect(model, `measured ${slope.toFixed(0)} B/agent`).toBeGreaterThanOrEqual(slope / 4);
  });

  it('an LLM world: bytes per agent and tick between two sizes', async () => {
    const run = (n: number) =>
      livePeak(['run', 'town-square', '--set', `agents=${n}`, '--ticks', '4', ...out(`town-${n}`)]);
    const a = await run(20);
    const b = await run(80);
    const slope = (b - a) / ((80 - 20) * 4);
    expect(slope, `measured ${slope.toFixed(0)} B/agent/tick`).toBeGreaterThanOrEqual(
      LLM_BYTES_PER_AGENT_TICK,
    );
    expect(LLM_BYTES_PER_AGENT_TICK).toBeGreaterThanOrEqual(slope / 4);
  });
});

describe('runs that cannot fit are refused before they start', () => {
  it('an edge list too large for the budget, before it is parsed', async () => {
    const edges = join(dir, 'edges.csv');
    writeFileSync(edges, Array.from({ length: 20_000 }, (_, i) => `${i},${(i * 7 + 1) % 20_000}`).join('\n'));
    const r = await cli(
      [
        'run',
        'rumor',
        '--set',
        'network=csv',
        '--set',
        `networkFile=${edges}`,
        '--quiet',
        '--out',
        join(dir, 'edges.ndjson'),
      ],
      {
        env: { GRAPEVINE_MEMORY_LIMIT: '4M' },
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /cannot read edge list .*edges\.csv: reading its \d+ bytes needs about \d+ MiB, more than this run's 4 MiB/,
    );
  });

  it.each([
    [
      'rumor on xstate, n=200000 under 300M',
      ['rumor', '--set', 'n=200000', '--set', 'executor=xstate'],
      '300M',
      /200000 agents on the xstate executor need at least/,
    ],
    [
      'town-square, 300 agents under 60M',
      ['town-square', '--set', 'agents=300'],
      '60M',
      /per agent and tick of LLM state/,
    ],
  ])('%s', async (_name, args, limit, message) => {
    const log = join(dir, `refused-${limit}.ndjson`);
    const started = Date.now();
    const r = await cli(['run', ...args, '--out', log, '--quiet'], {
      env: { GRAPEVINE_MEMORY_LIMIT: limit },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
