import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLiveLlm, resolveRunLlm } from '../../src/cli/llm-session.ts';
import { replayServices } from '../../src/cli/replay-services.ts';
import { RngStreams, runWorld } from '../../src/index.ts';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { InputBuffer } from '../../src/public/llm.ts';
import { LogWriter, readRecordedRun, rerunLog } from '../../src/replay/index.ts';
import { world } from '../../worlds/town-square/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('retry-digest');
const servers: LocalLlmServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function live(name: string, server: LocalLlmServer) {
  const log = join(dir, `${name}.ndjson`);
  const inputs = new InputBuffer();
  const llm = await openLiveLlm(
    resolveRunLlm({ llmBaseUrl: server.url, llmTimeoutMs: 250, llmAttempts: 12 }, {}),
    new RngStreams(5),
    inputs,
  );
  const result = await runWorld(world, {
    params: { agents: 6 },
    seed: 5,
    ticks: 3,
    openLog: (header) => LogWriter.create(log, header),
    llm: llm.port,
    llmInfo: llm.info,
    inputs,
    fallbacks: llm.counters,
  }).finally(() => llm.close());
  return { log, digest: result.digest, counters: { ...llm.counters } };
}

describe('retried LLM attempts leave the digest unchanged', () => {
  it('a run with timeouts, 500s and dropped sockets has the fault-free digest, and replays to it', async () => {
    const clean = await startLocalLlmServer({ port: 0 });
    const faulty = await startLocalLlmServer({
      port: 0,
      faultRate: 0.4,
      faultKinds: ['timeout', '500', 'drop'],
      faultTimeoutMs: 1000,
      seed: 3,
    });
    servers.push(clean, faulty);
    const a = await live('clean', clean);
    const b = await live('faulty', faulty);
    // the clean server injects no faults, but a loaded machine can still time a call out
    // (250 ms client timeout): such retries must leave the digest unchanged just the same
    expect(a.counters).toMatchObject({ calls: 18, failures: 0 });
    expect(b.counters).toMatchObject({ calls: 18, failures: 0 });
    expect(b.counters.retries).toBeGreaterThan(0);
    expect(faulty.stats().faults.timeout).toBeGreaterThan(0);
    expect(b.digest).toBe(a.digest);
    // the faulty run's log keeps its attempts (under wall) and replays offline to its digest
    const recorded = await readRecordedRun(b.log);
    const walls = recorded.llmRecords.map((r) => (r.wall as { attempts?: unknown[] }).attempts ?? []);
    expect(walls.flat().length).toBe(b.counters.retries);
    const rerun = await rerunLog(recorded, world, { services: replayServices(recorded)! });
    expect(rerun.digest).toBe(b.digest);
  }, 60_000);
});
