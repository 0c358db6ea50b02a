// LLM worlds in sweeps: every run of town-square gets an LLM from the sweep's LLM flags,
// over real HTTP to the shipped local server (started once by the sweep when no endpoint
// is named, or two of them in a pool); the results table does not depend on the number
// of worker threads or on which endpoint answered, and each log replays offline.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { readRecordedRun } from '../../src/replay/index.ts';
import { verifyInProcess } from '../fork/helpers.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('sweep-llm');
/** 2 points × 1 replicate of a 5-agent town square, 2 ticks. */
const SWEEP = ['town-square', '--grid', 'temperature=0.2,0.9', '--set', 'agents=5', '--ticks', '2'];
let servers: LocalLlmServer[] = [];

async function sweep(out: string, ...extra: string[]): Promise<Record<string, unknown>> {
  const r = await cli(['sweep', ...SWEEP, '--seed', '4', '--json', '--out', out, ...extra], {
    timeoutMs: 120_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const table = (out: string) => readFileSync(join(out, 'results.csv'), 'utf8');

beforeAll(async () => {
  servers = await Promise.all([startLocalLlmServer({ port: 0 }), startLocalLlmServer({ port: 0 })]);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('grapevine sweep of a world that needs an LLM', () => {
  const [local, pooled] = [join(dir, 'local'), join(dir, 'pooled')];

  beforeAll(async () => {
    // the sweep's own local server and 1 thread; a pool of two endpoints and 2 threads
    const urls = servers.flatMap((s) => ['--llm-base-url', s.url]);
    const [a, b] = await Promise.all([
      sweep(local, '--workers', '1'),
      sweep(pooled, '--workers', '2', '--model', 'grapevine-local', ...urls),
    ]);
    expect(a).toMatchObject({ runs: 2, ran: 2, failed: 0 });
    expect(b).toMatchObject({ runs: 2, ran: 2, failed: 0 });
  }, 180_000);

  it('gives the same results table with 1 thread and the local server as with 2 threads and an endpoint pool', () => {
    expect(table(pooled)).toBe(table(local));
    const rows = table(local).trim().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    // both endpoints of the pool answered calls
    for (const s of servers) expect(s.stats().requests).toBeGreaterThan(0);
  });

  it('records every LLM call in the run logs, which replay offline to their digests', async () => {
    const log = join(local, 'runs', 'p1-r0.ndjson');
    const recorded = await readRecordedRun(log);
    expect(recorded.header.llm).toMatchObject({ model: 'grapevine-local' });
    expect(recorded.llmRecords.length).toBeGreaterThan(0);
    const digest = table(local).trim().split('\n')[2].split(',')[5];
    expect(await verifyInProcess(log)).toBe(digest);
  });
});
