import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { cli } from '../support/cli.ts';
import { cliChecked, cliInProcess } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { events, llmLines, type Outcome, outcomeOf, summaryOf, townArgs } from './e2e-helpers.ts';

// End-to-end tests of LLM-backed agents: the real CLI in a child process, real HTTP to the
// shipped local OpenAI-compatible server, the real LangChain client path. The offline replays
// that check what replay decides (verified or diverged, and the error line) run in process.

const dir = tempDir('llm-e2e');
const KEY = 'sk-GRAPEVINE-FAKE-KEY-9876';
const ALL_FAULTS = ['429', '500', 'timeout', 'malformed', 'drop'] as const;

/** Servers still open at the end (closed in afterAll). */
const open: LocalLlmServer[] = [];
async function server(opts: Parameters<typeof startLocalLlmServer>[0] = {}): Promise<LocalLlmServer> {
  const s = await startLocalLlmServer({ port: 0, ...opts });
  open.push(s);
  return s;
}

/**
 * A run against `llm`, a local server of this process, in process. What it may leave open is
 * the LLM client's keep-alive connections to that server (one TCP socket each is listed:
 * the client's idle sockets are unreferenced): nothing else, and no more sockets than the
 * server took connections.
 */
function townInProcess(args: string[], llm: LocalLlmServer): Promise<Outcome> {
  return cliChecked(args, { llm });
}

afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});

// The baseline: a fault-free, zero-latency town-square run, with its server closed afterwards.
const baseLog = join(dir, 'base.ndjson');
let base: ReturnType<typeof summaryOf>;
let baseServer: LocalLlmServer;
let baseStatsAfterRun: ReturnType<LocalLlmServer['stats']>;

beforeAll(async () => {
  baseServer = await server({ latencyMs: 0, seed: 1 });
  base = summaryOf(await townInProcess(townArgs(baseLog, baseServer.url), baseServer));
  await baseServer.close();
  baseStatsAfterRun = baseServer.stats();
});

describe('town-square against the local server, then replay offline', () => {
  it('the run made real HTTP calls and recorded one llm line per decision', () => {
    expect(base).toMatchObject({ world: 'town-square', ticks: 4, reason: 'max-ticks', size: 6 });
    expect(base.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(base.llm.calls).toBe(24);
    expect(base.llm).toMatchObject({ failures: 0, retries: 0, fallbacks: 0 });
    expect(baseStatsAfterRun.connections).toBeGreaterThan(0);
    expect(baseStatsAfterRun.completions).toBe(24);
    const llm = llmLines(baseLog);
    expect(llm).toHaveLength(24);
    expect(llm.every((l) => l.reply !== null && l.attempts.length === 0 && !l.wall.attempts)).toBe(true);
    // format 2: each agent's schema (its contacts differ) is written once, then referenced
    const schemas = events(baseLog).filter((e) => e.type === 'schema');
    const refs = new Set(llm.map((l) => (l.params as { json: { schemaRef: string } }).json.schemaRef));
    expect(new Set(schemas.map((e) => e.id))).toEqual(refs);
    expect(schemas.length).toBe(refs.size);
    expect(llm.some((l) => 'schema' in (l.params as { json: object }).json)).toBe(false);
  });

  it('replay --verify after the server is closed: exit 0, same digest, zero connections anywhere', async () => {
    // A live server is the trap: the replay is pointed at it through the environment.
    const trap = await server();
    const r = await cli(['replay', baseLog, '--verify', '--json'], {
      env: { OPENAI_BASE_URL: trap.url },
      timeoutMs: 50_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, digest: base.digest, ticks: 4 });
    expect(trap.stats().connections).toBe(0);
    expect(trap.stats().requests).toBe(0);
    expect(baseServer.stats()).toEqual(baseStatsAfterRun);
  });

  it('inspect --agent 2 --at 2 --json works on an LLM log, offline', async () => {
    const trap = await server();
    const r = await cli(['inspect', baseLog, '--agent', '2', '--at', '2', '--json'], {
      env: {
        OPENAI_BASE_URL: trap.url,
      },
      timeoutMs: 50_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ tick: 2, agent: 2, state: { kind: 'llm' } });
    const tick2 = events(baseLog).find((e) => e.type === 'tick' && e.t === 2);
    expect(report.metrics).toEqual(tick2?.metrics);
    // agent 2 heard the square at tick 2 (everyone spoke or not at tick 1; the log says who)
    const observed = events(baseLog).filter(
      (e) => e.type === 'observe' && e.agent === 2 && e.t <= 2,
    ) as unknown as { msgs: number[] }[];
    const inspected = (report.observed as { messages: { id: number }[] }[]).flatMap((o) =>
      o.messages.map((m) => m.id),
    );
    expect(inspected).toEqual(observed.flatMap((o) => o.msgs));
    expect(trap.stats().connections).toBe(0);
  });
});

describe('commit order is canonical', () => {
  it('a jittery server (latencyJitterMs 40) gives the same digest as a zero-latency one', async () => {
    const jittery = await server({ latencyMs: 0, latencyJitterMs: 40, seed: 5 });
    const out = join(dir, 'jitter.ndjson');
    const r = summaryOf(await townInProcess(townArgs(out, jittery.url), jittery));
    await jittery.close();
    expect(r.digest).toBe(base.digest);
    // event for event, wall-clock measurements aside
    const noWall = (path: string) => events(path).map(({ wall: _wall, ...rest }) => rest);
    expect(noWall(out).slice(1)).toEqual(noWall(baseLog).slice(1));
    // The calls did finish out of agent order (else the test would prove nothing).
    const byTick = new Map<number, number[]>();
    for (const l of llmLines(out)) byTick.set(l.tick, [...(byTick.get(l.tick) ?? []), l.wall.latencyMs]);
    const outOfOrder = [...byTick.values()].some((lat) => lat.some((x, k) => k > 0 && x < lat[k - 1]));
    expect(outOfOrder).toBe(true);
    // ...while the log lists them by caller, every tick.
    for (const tick of byTick.keys()) {
      const callers = llmLines(out)
        .filter((l) => l.tick === tick)
        .map((l) => Number(l.caller));
      expect(callers).toEqual([...callers].sort((a, b) => a - b));
    }
  });
});

describe('faults: 429, 500, timeouts, malformed replies and dropped sockets', () => {
  const faultLog = join(dir, 'faults.ndjson');
  let faulty: LocalLlmServer;
  let run: ReturnType<typeof summaryOf>;
  let outcome: Outcome;

  beforeAll(async () => {
    // Seed 3: the fault draws for this run's requests include every kind, 3 of them malformed.
    faulty = await server({
      faultRate: 0.3,
      faultKinds: [...ALL_FAULTS],
      retryAfterSeconds: 0.05,
      seed: 3,
    });
    outcome = await cli(townArgs(faultLog, faulty.url, '--llm-timeout-ms', '400', '--llm-attempts', '8'), {
      timeoutMs: 50_000,
    });
    await faulty.close();
    run = summaryOf(outcome);
  });

  it('the run completes and records the failed attempts under wall, outside the digest', () => {
    expect(outcome.code).toBe(0);
    expect(run.llm.retries).toBeGreaterThan(0);
    expect(run.llm).toMatchObject({ calls: 24, failures: 0, fallbacks: 0 });
    expect(llmLines(faultLog).every((l) => l.attempts.length === 0)).toBe(true);
    const attempts = llmLines(faultLog).flatMap((l) => l.wall.attempts ?? []);
    expect(attempts.length).toBe(run.llm.retries);
    expect(attempts.every((a) => typeof a.error === 'string' && a.backoffMs > 0)).toBe(true);
    const kinds = new Set(attempts.map((a) => a.error));
    // every kind the server injected shows up in the log under the client's label
    const faults = faulty.stats().faults;
    expect(faults.malformed).toBeGreaterThan(0);
    expect(kinds.has('malformed')).toBe(true);
    if (faults.timeout > 0) expect(kinds.has('timeout')).toBe(true);
    if (faults['429'] > 0) expect(kinds.has('http-429')).toBe(true);
    if (faults['500'] > 0) expect(kinds.has('http-500')).toBe(true);
    if (faults.drop > 0) expect(kinds.has('connection')).toBe(true);
  });

  it('malformed replies are retried by the retry layer, never re-asked nor turned into fallbacks', () => {
    const lines = llmLines(faultLog);
    expect(lines.every((l) => l.purpose === 'decide')).toBe(true);
    expect(lines.every((l) => l.reply !== null)).toBe(true);
    const acts = events(faultLog).filter((e) => e.type === 'act');
    expect(acts).toHaveLength(24);
    for (const a of acts) expect((a.memory as { fallback: boolean }).fallback).toBe(false);
  });

  it('the run equals the fault-free run: outcome, summary and digest (which attempts failed is timing)', () => {
    expect(outcomeOf(faultLog)).toEqual(outcomeOf(baseLog));
    expect(run.summary).toEqual(base.summary);
    expect(run.digest).toBe(base.digest);
    // the replies themselves are the fault-free ones
    expect(llmLines(faultLog).map((l) => l.reply)).toEqual(llmLines(baseLog).map((l) => l.reply));
  });

  it('the log with its recorded faults replays offline with the same digest', async () => {
    const r = await cliInProcess(['replay', faultLog, '--verify', '--json']);
    expect(r.code).toBe(0);
    expect(r.leaked).toEqual([]);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, digest: run.digest });
  });
});

describe('the API key never leaks', () => {
  function expectNoKey(r: Outcome, log: string): void {
    for (const text of [r.stdout, r.stderr, readFileSync(log, 'latin1')]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('FAKE-KEY-9876');
    }
  }

  it('not in the log, stdout or stderr of a run against the local server', async () => {
    const s = await server();
    const out = join(dir, 'key.ndjson');
    const r = await cli(townArgs(out, s.url, '--ticks', '2'), {
      env: { OPENAI_API_KEY: KEY },
      timeoutMs: 50_000,
    });
    expect(r.code).toBe(0);
    expect(s.stats().completions).toBeGreaterThan(0);
    expectNoKey(r, out);
    // the key was in use: the header says where it came from, without its value
    const header = events(out)[0] as unknown as { wall: { llmEndpoint: string } };
    expect(header.wall.llmEndpoint).toContain('key from OPENAI_API_KEY');
  });

  it('not in the outputs of a run against a closed port (with --allow-fallbacks: fallbacks, exit 0)', async () => {
    const out = join(dir, 'closed.ndjson');
    const r = await cli(
      [
        'run',
        'town-square',
        '--set',
        'agents=6',
        '--ticks',
        '1',
        '--log',
        'full',
        '--json',
        '--out',
        out,
      ].concat([
        '--llm-base-url',
        'http://127.0.0.1:9/v1',
        '--model',
        'grapevine-local',
        '--llm-attempts',
        '1',
        '--allow-fallbacks',
      ]),
      { env: { OPENAI_API_KEY: KEY }, timeoutMs: 50_000 },
    );
    expectNoKey(r, out);
    // A clear outcome: every decision fell back, and the log says why.
    expect(r.code).toBe(0);
    const s = summaryOf(r);
    expect(s.llm).toMatchObject({ calls: 6, failures: 6, fallbacks: 6 });
    for (const l of llmLines(out)) {
      expect(l.reply).toBeNull();
      expect(l.error?.kind).toBe('connection');
    }
    // the failures are recorded: the fallback run replays offline
    const replay = await cliInProcess(['replay', out, '--verify', '--json']);
    expect(replay.code).toBe(0);
    expect(replay.leaked).toEqual([]);
    expect(JSON.parse(replay.stdout)).toMatchObject({ verified: true, digest: s.digest });
  });

  it('not even when the endpoint echoes the Authorization header in its error', async () => {
    // Like OpenAI's 401 "Incorrect API key provided: sk-...", but with the whole key.
    const echo: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: {
              message: `Incorrect API key provided: ${req.headers.authorization}. raw=${KEY}`,
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          }),
        );
      });
    });
    await new Promise<void>((ok) => echo.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`;
    const out = join(dir, 'echo.ndjson');
    try {
      // without --model the server is asked for its models: its 401 is named, its body (the key) is not
      const listing = await cli(townArgs(join(dir, 'echo-list.ndjson'), url, '--ticks', '1'), {
        env: { OPENAI_API_KEY: KEY },
      });
      expect(listing.code).toBe(2);
      expect(listing.stderr).toMatch(/name a model with --model .*GET \/models answered 401/);
      expect(listing.stdout + listing.stderr).not.toContain('FAKE-KEY-9876');
      const r = await cli(
        townArgs(
          out,
          url,
          '--ticks',
          '1',
          '--model',
          'grapevine-local',
          '--llm-attempts',
          '2',
          '--allow-fallbacks',
        ),
        {
          env: {
            OPENAI_API_KEY: KEY,
          },
          timeoutMs: 50_000,
        },
      );
      expectNoKey(r, out);
      // a 401 is not retried: each decision fails at once and falls back
      expect(r.code).toBe(0);
      expect(summaryOf(r).llm).toMatchObject({ calls: 6, failures: 6, retries: 0, fallbacks: 6 });
      const failed = llmLines(out);
      expect(failed.every((l) => l.reply === null && l.wall.attempts?.length === 1)).toBe(true);
      // the server's words reach the log, redacted
      expect(failed[0].error?.message).toContain('Incorrect API key provided: Bearer sk-***');
    } finally {
      await new Promise<void>((ok) => echo.close(() => ok()));
    }
  });
});

describe('a changed prompt makes the replay fail, naming agent, tick and message', () => {
  it('an edited persona: exit 1, caller "1", tick 1, message 0 (system)', async () => {
    const s = await server();
    const personas = join(dir, 'personas.json');
    const list = JSON.parse(readFileSync('agents/personas.json', 'utf8')) as { persona: string }[];
    writeFileSync(personas, JSON.stringify(list, null, 2));
    const out = join(dir, 'personas.ndjson');
    const r = await townInProcess(townArgs(out, s.url, '--ticks', '2', '--set', `personas=${personas}`), s);
    expect(r.code).toBe(0);
    // the log records no sha256 of its personas file: a rerun opens it only when the user names it
    const unnamed = await cliInProcess(['replay', out, '--verify']);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('--input personas=FILE');
    const named = ['--input', `personas=${personas}`];
    const before = await cliInProcess(['replay', out, '--verify', ...named]);
    expect(before.code).toBe(0);

    list[1].persona = 'cheerful, loud, repeats every rumour twice';
    writeFileSync(personas, JSON.stringify(list, null, 2));
    const after = await cliInProcess(['replay', out, '--verify', ...named]);
    expect(after.code).toBe(1);
    expect(after.leaked).toEqual([]);
    expect(after.stderr.split('\n')[0]).toMatch(/^grapevine: replay diverged/);
    expect(after.stderr).toContain('caller "1"');
    expect(after.stderr).toContain('tick 1');
    expect(after.stderr).toContain('message 0 (system)');
    expect(after.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
