// Forks of an LLM world (town-square, 8 LLM residents, 10 ticks) against the shipped local
// server over real HTTP: the shared past is served from the recording (no network), only
// ticks after the fork tick ask the model. The commands run in this process (cliChecked, one at a
// time, no resource left open); the server they call is a process of its own (serve-llm).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalLlmServer } from '../../src/llm-server/index.ts';
import { cliCheckedJson } from '../support/cli-in-process.ts';
import { type ServeLlmChild, startServeLlm } from '../support/serve-llm-child.ts';
import { tempDir } from '../support/temp-dir.ts';
import { expectForkOf, parsed, verifyCliIn, wallOf, write } from './helpers.ts';

const dir = tempDir('fork-llm');
let server: ServeLlmChild;
let closedUrl: string;

/** Parents: without periodic snapshots (forks rerun from tick 0) and with one every 3 ticks. */
const plain = join(dir, 'plain.ndjson');
const snap = join(dir, 'snap.ndjson');
const digests: Record<string, string> = {};

function llmTicks(path: string): number[] {
  return parsed(path)
    .filter((l) => l.type === 'llm')
    .map((l) => l.t);
}

beforeAll(async () => {
  server = await startServeLlm();
  const closed = await startLocalLlmServer({ port: 0 });
  closedUrl = closed.url;
  await closed.close();
  const base = ['run', 'town-square', '--llm-base-url', server.url, '--seed', '5'];
  const a = await cliCheckedJson([...base, '--out', plain]);
  const b = await cliCheckedJson([...base, '--snapshot-every', '3', '--out', snap]);
  digests[plain] = a.digest as string;
  digests[snap] = b.digest as string;
  expect(a.ticks).toBe(10);
  expect(b.ticks).toBe(10);
  // every resident asks the model on every tick
  expect(llmTicks(plain).filter((t) => t === 5)).toHaveLength(8);
});

afterAll(async () => {
  await server?.close();
});

describe('an LLM-world fork without intervention reproduces the parent', () => {
  it('fork at tick 5: same digest, same bytes, and no call reaches the server (the later calls are replayed from the parent)', async () => {
    const own = await startLocalLlmServer({ port: 0 });
    try {
      const out = join(dir, 'plain-5.ndjson');
      const r = await cliCheckedJson(['fork', plain, '--at', '5', '--llm-base-url', own.url, '--out', out]);
      expect(r.digest).toBe(digests[plain]);
      expectForkOf(plain, out, 5, false);
      expect(llmTicks(plain).filter((t) => t > 5).length).toBeGreaterThan(0);
      expect(own.stats().completions).toBe(0);
      expect(String(wallOf(out).llmEndpoint)).toContain(own.url);
    } finally {
      await own.close();
    }
  });

  it.each([
    [5, 'between the snapshots at 3 and 6'],
    [6, 'at a snapshot'],
  ])('with periodic snapshots, fork at tick %i (%s): same digest', async (at) => {
    const out = join(dir, `snap-${at}.ndjson`);
    const r = await cliCheckedJson([
      'fork',
      snap,
      '--at',
      String(at),
      '--llm-base-url',
      server.url,
      '--out',
      out,
    ]);
    expect(r.digest).toBe(digests[snap]);
    expectForkOf(snap, out, at, false);
  });
});

describe('an LLM-world fork with an intervention', () => {
  it('a message into the square at tick 4: the past is byte-identical, the future differs, the child verifies offline', async () => {
    const iv = write(
      dir,
      'crier.yaml',
      [
        'type: message',
        'to: { channel: square }',
        'kind: say',
        'payload: { text: "Hear ye: the mill bridge closes on Monday, and the mayor is not selling the park." }',
      ].join('\n'),
    );
    const out = join(dir, 'crier.ndjson');
    const r = await cliCheckedJson([
      'fork',
      plain,
      '--at',
      '4',
      '--intervene',
      iv,
      '--llm-base-url',
      server.url,
      '--out',
      out,
    ]);
    expect(r.digest).not.toBe(digests[plain]);
    expectForkOf(plain, out, 4, true);
    // the residents' prompts after the fork carry the crier's words
    const after = parsed(out).filter((l) => l.type === 'llm' && l.t === 5);
    expect(after.length).toBeGreaterThan(0);
    expect(JSON.stringify(after)).toContain('mill bridge closes on Monday, and the mayor is not selling');
    expect(await verifyCliIn(out)).toBe(r.digest);
  });
});

describe('a fork never calls the LLM for ticks up to the fork tick', () => {
  it.each([
    ['plain', 'without periodic snapshots (reruns ticks 1..10 from the recording)'],
    ['snap', 'with periodic snapshots (restores tick 9, reruns tick 10)'],
  ])('fork of the %s parent at the last tick with the server closed: %s', async (name) => {
    const parent = name === 'plain' ? plain : snap;
    const out = `${parent}.last.ndjson`;
    const r = await cliCheckedJson(['fork', parent, '--at', '10', '--llm-base-url', closedUrl, '--out', out]);
    expect(r.digest).toBe(digests[parent]);
    expect(r.ticks).toBe(10);
  });
});
