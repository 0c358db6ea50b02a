// Fork batches of an LLM world on the worker pool (issue 12): each thread opens its
// children's LLM as `fork` does (recorded replies up to the fork tick, then the batch's
// endpoint over real HTTP). A tiny town square (5 residents, the fewest it takes; 4 ticks): the children of
// 2 threads are the children of 1 thread (one after another in the command's thread) and
// of a single fork, line for line but for the unhashed `wall` fields (the header's names the
// endpoint, each call's holds its latency).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { cliJson } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { type BatchChild, lines, verifyInProcess, wallOf, withoutWall, write } from './helpers.ts';

const dir = tempDir('fork-llm-batch-pool');
const parent = join(dir, 'parent.ndjson');
const SEED = 5;

let server: LocalLlmServer;
let iv: string;
const batches: Record<string, BatchChild[]> = {};
let liveCalls = 0;

const BATCH = ['--at', '2', '--replicates', '2'];

beforeAll(async () => {
  server = await startLocalLlmServer({ port: 0 });
  iv = write(
    dir,
    'crier.yaml',
    'type: message\nto: { channel: square }\nkind: say\npayload: { text: "Free bread at the mill today." }\n',
  );
  await cliJson([
    ...['run', 'town-square', '--set', 'agents=5', '--ticks', '4', '--seed', String(SEED)],
    ...['--snapshot-every', '2', '--llm-base-url', server.url, '--out', parent],
  ]);
  const before = server.stats().completions;
  // one thread, one after another with the test's server; two threads with the batch's own server
  const one = await cliJson([
    ...['fork', parent, ...BATCH, '--intervene', iv, '--workers', '1'],
    ...['--llm-base-url', server.url, '--out', join(dir, 'w1')],
  ]);
  liveCalls = server.stats().completions - before;
  const two = await cliJson([
    ...['fork', parent, ...BATCH, '--intervene', iv, '--workers', '2', '--out', join(dir, 'w2')],
  ]);
  batches['1'] = one.children as BatchChild[];
  batches['2'] = two.children as BatchChild[];
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** A log's lines (a delta child's with its parent's past) without their unhashed `wall` fields. */
const hashed = (path: string) => lines(path).map(withoutWall);

describe('an LLM-world fork batch on the worker pool', () => {
  it('writes the same children with 2 threads as with 1, and asks the endpoint after the fork tick', () => {
    const [one, two] = [batches['1'], batches['2']];
    expect(one.map((c) => [c.arm, c.replicate])).toEqual([
      ['treated', 1],
      ['control', 1],
      ['treated', 2],
      ['control', 2],
    ]);
    expect(two.map((c) => c.digest)).toEqual(one.map((c) => c.digest));
    expect(new Set(one.map((c) => c.digest)).size).toBe(one.length);
    expect(liveCalls).toBeGreaterThan(0);
    for (const [k, c] of one.entries()) {
      expect(hashed(two[k].log)).toEqual(hashed(c.log));
    }
    // the 2-thread batch named no endpoint: its children went to the one shipped server it started
    const endpoints = new Set(two.map((c) => String(wallOf(c.log).llmEndpoint)));
    expect(endpoints.size).toBe(1);
    expect(String(wallOf(one[0].log).llmEndpoint)).toContain(server.url);
  });

  it('writes children that replay offline, each equal to the same child forked alone', async () => {
    const treated = batches['2'].find((c) => c.arm === 'treated' && c.replicate === 2)!;
    expect(await verifyInProcess(treated.log)).toBe(treated.digest);
    const out = join(dir, 'alone.ndjson');
    const alone = await cliJson([
      ...['fork', parent, '--at', '2', '--intervene', iv, '--seed', String(SEED * 1000 + 2)],
      ...['--llm-base-url', server.url, '--out', out],
    ]);
    expect(alone.digest).toBe(treated.digest);
    expect(hashed(out)).toEqual(hashed(treated.log));
    // with the same endpoint named, the header's wall-clock part is the same too
    const twin = batches['1'].find((c) => c.arm === 'treated' && c.replicate === 2)!;
    expect(wallOf(out)).toEqual(wallOf(twin.log));
  });
});
