import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RngStreams } from '../../../src/core/index.ts';
import { type LocalLlmServer, startLocalLlmServer } from '../../../src/llm-server/index.ts';
import { auditPrompts } from '../../../src/metrics/index.ts';
import { readHeader } from '../../../src/replay/index.ts';
import type { PrivateItem } from '../../../src/world/index.ts';
import { world } from '../../../worlds/town-square/index.ts';
import { events, llmLines, summaryOf, townArgs } from '../../llm-e2e/e2e-helpers.ts';
import { cliChecked } from '../../support/cli-in-process.ts';
import { tempDir } from '../../support/temp-dir.ts';

const dir = tempDir('town-square');
let llm: LocalLlmServer;

beforeAll(async () => {
  llm = await startLocalLlmServer({ port: 0, seed: 1 });
});

// The commands run in this process (cliChecked): these cases test what a run writes and what
// a command refuses, and a process start costs ~0.3 CPU-s; town-square runs in real processes
// in llm-e2e/ and package/. What a command may leave open is the LLM client's keep-alive
// connections to `llm` (idle and unreferenced), no more than the server took.

afterAll(async () => {
  await llm.close();
});

/** The world's declared private items (goals, the secret) for the run a log header describes. */
async function privateItemsOf(path: string): Promise<PrivateItem[]> {
  const header = await readHeader(path);
  const seed = header.seed as number;
  const instance = world.create({
    params: world.params.parse(header.params),
    seed,
    rng: new RngStreams(seed),
  });
  return instance.privateItems ?? [];
}

describe('prompt audit of a town-square run', () => {
  const log = join(dir, 'audit.ndjson');
  let privates: PrivateItem[];
  let persona0: string;

  beforeAll(async () => {
    summaryOf(await cliChecked(townArgs(log, llm.url), { llm }));
    privates = await privateItemsOf(log);
    persona0 = (JSON.parse(readFileSync('agents/personas.json', 'utf8')) as { persona: string }[])[0].persona;
  });

  it('the world declares every goal and the secret as private', () => {
    expect(privates.filter((p) => p.kind === 'goal').map((p) => p.owner)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(privates.filter((p) => p.kind === 'secret').map((p) => p.owner)).toEqual([0]);
  });

  it('finds no leak: other agents’ goals appear only after someone said them', async () => {
    const report = await auditPrompts(log, privates);
    expect(report.prompts).toBe(llmLines(log).length);
    expect(report.prompts).toBe(24);
    expect(report.leaks).toEqual([]);
    // Not vacuous: the residents announce their goals in the square, and those who heard them
    // carry them in later prompts, which the audit sees and explains.
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.every((f) => f.allowed && f.kind === 'goal')).toBe(true);
  });

  it('negative control: agent 0’s persona, declared private to agent 1, is reported as a leak by caller 0', async () => {
    const fake: PrivateItem = { owner: 1, kind: 'persona', text: persona0 };
    const report = await auditPrompts(log, [...privates, fake]);
    const agent0Prompts = llmLines(log).filter((l) => l.caller === '0');
    expect(report.leaks).toHaveLength(agent0Prompts.length);
    expect(report.leaks.every((f) => f.caller === 0 && f.owner === 1 && f.kind === 'persona')).toBe(true);
    expect(report.leaks.map((f) => f.seq)).toEqual(agent0Prompts.map((l) => l.seq));
    expect(report.leaks[0]).toMatchObject({ tick: 1, text: persona0, allowed: false });
  });

  // Commit 6bc80f5 declared `PrivateItem.visibleTo` ("declared, not leaks") and
  // `AuditFinding.basis`, but auditPrompts ignores visibleTo and never sets basis.
  it('an item declared visible to the caller is not a leak, and findings say why they are allowed', async () => {
    const declared: PrivateItem = { owner: 1, kind: 'persona', text: persona0, visibleTo: [0] };
    const report = await auditPrompts(log, [...privates, declared]);
    expect(report.leaks).toEqual([]);
    const persona = report.findings.filter((f) => f.kind === 'persona');
    expect(persona.length).toBeGreaterThan(0);
    expect(persona.every((f) => f.allowed && f.basis === 'declared')).toBe(true);
    const goals = report.findings.filter((f) => f.kind === 'goal');
    expect(goals.every((f) => f.basis === 'observed')).toBe(true);
  });

  // The full log should say what each agent did. An LLM agent learns items in the synchronous
  // part of its step (before its LLM call), but the engine drops that part's action record
  // (`ctx.close()` in Engine.stepAll for a policy that returns a Promise), so the LEARN_*
  // events and provenance slots never reach its `act` line.
  it('the act lines of LLM agents record what they learned, from whom and when', () => {
    const names = (JSON.parse(readFileSync('agents/personas.json', 'utf8')) as { name: string }[]).map(
      (p) => p.name,
    );
    const all = events(log);
    const end = all.find((e) => e.type === 'end')!;
    const summary = end.summary as Record<
      string,
      { learned: { agent: string; from: string; tick: number }[] }
    >;
    const learnings = Object.entries(summary).flatMap(([item, s]) =>
      s.learned.filter((l) => l.from !== 'start').map((l) => ({ item, ...l, index: names.indexOf(l.agent) })),
    );
    expect(learnings.length).toBeGreaterThan(0); // the fact and the rumour do spread
    for (const l of learnings) {
      const act = all.find((e) => e.type === 'act' && e.t === l.tick && e.agent === l.index);
      expect(act, `act line of agent ${l.index} at tick ${l.tick}`).toBeDefined();
      expect(act!.events).toContain(`LEARN_${l.item.toUpperCase()}`);
      expect(act!.memory).toMatchObject({
        [`src_${l.item}`]: names.indexOf(l.from),
        [`at_${l.item}`]: l.tick,
      });
    }
  });

  it('refuses a minimal log (it does not say what each agent observed)', async () => {
    const minimal = join(dir, 'minimal.ndjson');
    const args = townArgs(minimal, llm.url, '--ticks', '1');
    args[args.indexOf('full')] = 'minimal';
    summaryOf(await cliChecked(args, { llm }));
    await expect(auditPrompts(minimal, privates)).rejects.toThrow(/--log full|observed/);
  });
});

describe('mixed run: 3 LLM agents among 10', () => {
  it('completes; rule agents act and speak; only LLM agents call the model; replay verifies', async () => {
    const log = join(dir, 'mixed.ndjson');
    const args = townArgs(log, llm.url, '--set', 'agents=10', '--set', 'llmAgents=3');
    args.splice(args.indexOf('agents=6') - 1, 2); // drop the default agents=6
    const run = summaryOf(await cliChecked(args, { llm }));
    expect(run).toMatchObject({ size: 10, ticks: 4, reason: 'max-ticks' });
    expect(run.llm).toMatchObject({ failures: 0, fallbacks: 0 });

    const all = events(log);
    const callers = new Set(llmLines(log).map((l) => Number(l.caller)));
    expect([...callers].sort()).toEqual([0, 1, 2]);
    expect(run.llm.calls).toBe(3 * 4);

    const says = new Map<number, { from: number; item?: string }>();
    for (const e of all) if (e.type === 'send' && e.kind === 'say') says.set(e.id as number, e as never);
    const ruleActs = all.filter((e) => e.type === 'act' && (e.agent as number) >= 3);
    const ruleSays = ruleActs.flatMap((a) => (a.sent as number[]).filter((id) => says.has(id)));
    expect(ruleSays.length).toBeGreaterThan(0);
    for (const id of ruleSays) {
      expect(says.get(id)!.from).toBeGreaterThanOrEqual(3);
      expect(['fact', 'rumor', 'secret']).toContain(says.get(id)!.item);
    }

    const replay = await cliChecked(['replay', log, '--verify', '--json'], { llm });
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ verified: true, digest: run.digest });
  });
});

describe('bad input is a usage error (exit 2) that names the problem', () => {
  it('llmAgents larger than agents', async () => {
    const out = join(dir, 'bad-llm-agents.ndjson');
    const r = await cliChecked(
      ['run', 'town-square', '--set', 'llmAgents=20', '--set', 'agents=8', '--out', out],
      { llm },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^grapevine: .*llmAgents/);
    expect(r.stderr).toContain('llmAgents (20) exceeds agents (8)');
    expect(existsSync(out)).toBe(false);
  });

  it('a base URL that is not a URL', async () => {
    const out = join(dir, 'bad-url.ndjson');
    const r = await cliChecked(['run', 'town-square', '--llm-base-url', 'not-a-url', '--out', out], { llm });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^grapevine: --llm-base-url is not a URL/);
    expect(r.stderr).toContain('--llm-base-url');
    expect(existsSync(out)).toBe(false);
  });

  it('a base URL that is not http(s)', async () => {
    const r = await cliChecked(
      ['run', 'town-square', '--llm-base-url', 'ftp://127.0.0.1/v1', '--out', join(dir, 'x')],
      { llm },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('must be an http or https URL');
  });
});
