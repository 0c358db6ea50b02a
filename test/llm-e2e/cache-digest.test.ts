// Same world, config and seed give the same digest whether the replies came from the model or
// from `--llm-cache`: a cache hit is how the run was done, not what happened. Before cache hits
// moved under `wall`, a second `run town-square --llm-cache DIR` served wholly from the cache
// gave another digest (5 agents x 5 ticks, seed 1: ffd50d76 first, 20e75343 from the cache),
// and so did a fork or a resume served from the cache.
// The real CLI in child processes, real HTTP to the shipped local server.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { events, llmLines, summaryOf } from './e2e-helpers.ts';

const dir = tempDir('cache-digest');
const cache = join(dir, 'cache');
let server: LocalLlmServer;

const digestOf = (r: Awaited<ReturnType<typeof cliChecked>>): string => summaryOf(r).digest;

function runArgs(out: string, ...extra: string[]): string[] {
  const world = ['town-square', '--set', 'agents=5', '--ticks', '5', '--snapshot-every', '1'];
  return ['run', ...world, '--seed', '1', '--out', out, '--json', '--llm-base-url', server.url, ...extra];
}

// The commands run in this process (cliChecked): what is checked is the digests and lines
// they write, and a process start costs ~0.3 CPU-s (town-square-llm.test.ts runs the LLM
// commands in real processes). What a command may leave open is the LLM client's idle
// keep-alive connections to `server`, no more than the server took.

/** Model calls the server has answered so far. */
const completions = () => server.stats().completions;

beforeAll(async () => {
  server = await startLocalLlmServer({ port: 0, latencyMs: 0 });
});

afterAll(async () => {
  await server?.close();
});

describe('a run served from --llm-cache has the digest of the run that asked the model', () => {
  const first = join(dir, 'first.ndjson');
  const second = join(dir, 'second.ndjson');
  const plain = join(dir, 'plain.ndjson');
  let a: ReturnType<typeof summaryOf>;
  let b: ReturnType<typeof summaryOf>;
  let callsBySecond = -1;

  beforeAll(async () => {
    a = summaryOf(await cliChecked(runArgs(first, '--llm-cache', cache), { llm: server }));
    const before = completions();
    b = summaryOf(await cliChecked(runArgs(second, '--llm-cache', cache), { llm: server }));
    callsBySecond = completions() - before;
  });

  it('the second run made no model call: every reply came from the cache', () => {
    expect(a.llm).toMatchObject({ calls: 25, cacheHits: 0, failures: 0 });
    expect(b.llm).toMatchObject({ calls: 25, cacheHits: 25, tokensIn: 0, failures: 0 });
    expect(callsBySecond).toBe(0);
  });

  it('both runs have one digest, that of a run without a cache', async () => {
    expect(b.digest).toBe(a.digest);
    expect(digestOf(await cliChecked(runArgs(plain), { llm: server }))).toBe(a.digest);
  });

  it('the hit is marked under wall, and the hashed part of each llm line is the same', () => {
    const hits = llmLines(second);
    expect(hits.map((l) => [l.cached, l.wall.cached])).toEqual(hits.map(() => [false, true]));
    expect(llmLines(first).every((l) => l.cached === false && !('cached' in l.wall))).toBe(true);
    const hashed = (path: string) => events(path).map(({ wall, h, ...rest }) => rest);
    expect(hashed(second)).toEqual(hashed(first));
  });

  it('replay --verify reproduces the cached run offline, and report counts its cache hits', async () => {
    const r = await cliChecked(['replay', second, '--verify', '--json'], { llm: server });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, digest: a.digest });
    const rep = await cliChecked(['report', second, '--json', '--out', join(dir, 'second.html')], {
      llm: server,
    });
    expect(rep.code, rep.stderr).toBe(0);
    const series = JSON.parse(rep.stdout).figures.find((f: { id: string }) => f.id === 'llm-calls').chart
      .series as { name: string; y: number[] }[];
    const total = (name: string) => series.find((s) => s.name === name)!.y.reduce((x, y) => x + y, 0);
    expect([total('calls'), total('cached')]).toEqual([25, 25]);
  });

  it('a reseeded fork served from the cache has the digest of the fork that asked the model', async () => {
    const fork = (out: string) =>
      cliChecked(
        [
          'fork',
          first,
          '--at',
          '2',
          '--seed',
          '9',
          '--json',
          '--out',
          join(dir, out),
          '--llm-base-url',
          server.url,
          '--llm-cache',
          join(dir, 'fork-cache'),
        ],
        { llm: server },
      );
    const before = completions();
    const x = digestOf(await fork('fork-1.ndjson'));
    const asked = completions() - before;
    const y = digestOf(await fork('fork-2.ndjson'));
    expect(asked).toBeGreaterThan(0); // the reseeded future asked the model the first time
    expect(completions() - before).toBe(asked); // and not the second time
    expect(y).toBe(x);
    expect(llmLines(join(dir, 'fork-2.ndjson')).some((l) => l.wall.cached === true)).toBe(true);
  });

  it('a resume served from the cache reaches the digest of the uninterrupted run', async () => {
    // the run cut right after its tick-2 line, as a crash could leave it
    const lines = readFileSync(first, 'utf8').split('\n');
    const tick2 = lines.findIndex((l) => l.includes('"type":"tick"') && JSON.parse(l).t === 2);
    const cut = join(dir, 'cut.ndjson');
    writeFileSync(cut, `${lines.slice(0, tick2 + 1).join('\n')}\n`);
    const before = completions();
    const r = await cliChecked(
      ['resume', cut, '--json', '--llm-base-url', server.url, '--llm-cache', cache],
      { llm: server },
    );
    expect(completions()).toBe(before);
    expect(digestOf(r)).toBe(a.digest);
  });
});

describe('a budget-capped run served from the cache stops where the first run stopped', () => {
  it('same stop tick, same digest: a hit counts towards the budget as the model billed it', async () => {
    // 5 agents call once a tick; a budget of about three ticks' tokens stops the run early
    const budget = ['--budget-tokens', '6000', '--llm-cache', join(dir, 'budget-cache')];
    const x = summaryOf(await cliChecked(runArgs(join(dir, 'budget-1.ndjson'), ...budget), { llm: server }));
    const before = completions();
    const y = summaryOf(await cliChecked(runArgs(join(dir, 'budget-2.ndjson'), ...budget), { llm: server }));
    expect(x.reason).toBe('budget-exhausted');
    expect(x.ticks).toBeLessThan(5);
    expect(completions()).toBe(before); // every reply of the second run came from the cache
    expect(y.llm).toMatchObject({ cacheHits: x.llm.calls, tokensIn: 0 });
    expect(y.llm.cachedTokens).toBe(x.llm.tokensIn + x.llm.tokensOut);
    expect([y.reason, y.ticks, y.digest]).toEqual([x.reason, x.ticks, x.digest]);
  });
});

describe('a log written before cache hits moved under wall', () => {
  const golden = 'replays/golden/town-square-cached-v0.1-format2.ndjson.gz';

  it('a fork without intervention writes its cached:true lines back, keeping its digest', async () => {
    const verified = await cliChecked(['replay', golden, '--verify', '--json'], { llm: server });
    expect(verified.code, verified.stderr).toBe(0);
    const digest = JSON.parse(verified.stdout).digest as string;
    const out = join(dir, 'golden-fork.ndjson');
    const before = completions();
    const r = await cliChecked(
      ['fork', golden, '--at', '1', '--json', '--out', out, '--llm-base-url', server.url],
      { llm: server },
    );
    expect(digestOf(r)).toBe(digest);
    expect(completions()).toBe(before);
    const after = llmLines(out).filter((l) => l.tick > 1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((l) => l.cached === true && l.wall.cached === undefined)).toBe(true);
  });
});
