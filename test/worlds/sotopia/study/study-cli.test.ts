import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// a study runs many episodes; on a loaded shared machine one call can take several seconds
vi.setConfig({ testTimeout: 600_000 });

import { auditCommand, type LogAudit } from '../../../../src/cli/commands/audit.ts';
import { type LocalLlmServer, startLocalLlmServer } from '../../../../src/llm-server/index.ts';
import { importSotopia } from '../../../../worlds/sotopia/importer.ts';
import { sotopiaScriptResponder } from '../../../../worlds/sotopia/llm-responder.ts';
import { STUDY_OUTPUTS } from '../../../../worlds/sotopia/study/outputs.ts';
import type { StudyReport } from '../../../../worlds/sotopia/study/report.ts';
import { cli } from '../../../support/cli.ts';
import { cliChecked } from '../../../support/cli-in-process.ts';
import { startServeLlm } from '../../../support/serve-llm-child.ts';
import { tempDir } from '../../../support/temp-dir.ts';

const root = tempDir('study');
const FIRST = importSotopia().environments[0];
const SCENARIOS = [FIRST.env_id, 'mutual_friend_00001', 'craigslist_bargains_00000'];
const MODES = ['agents', 'script', 'mindreaders'];
const EPISODES = SCENARIOS.length * MODES.length;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function studyArgs(out: string, url: string, ...extra: string[]): string[] {
  return [
    'study',
    'sotopia',
    '--modes',
    MODES.join(','),
    '--scenarios',
    SCENARIOS.join(','),
    '--pairs',
    '1',
    '--seed',
    '5',
    '--max-turns',
    '4',
    '--out',
    out,
    '--llm-base-url',
    url,
    '--model',
    'grapevine-local',
    '--judge-model',
    'same',
    ...extra,
  ];
}

const study = (out: string, url: string, ...extra: string[]) => cliChecked(studyArgs(out, url, ...extra));

function read(path: string): string {
  return readFileSync(path, 'utf8');
}

function logsOf(dir: string): string[] {
  const episodes = join(dir, 'episodes');
  return existsSync(episodes)
    ? readdirSync(episodes)
        .filter((f) => f.endsWith('.ndjson'))
        .sort()
    : [];
}

function isComplete(path: string): boolean {
  const text = read(path);
  if (!text.endsWith('\n')) return false;
  const lines = text.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1]).type === 'end';
}

const full = join(root, 'full');
const killed = join(root, 'killed');
const staged = join(root, 'staged');
let fullRun: Outcome;
let fullJson: Record<string, unknown>;
let standalone: Outcome;
let killedCompleteAtKill = 0;
let killedRerun: Outcome;
let stagedFirst: Outcome;
let stagedSecond: Outcome;
let closed = false;

beforeAll(async () => {
  // a process of its own: the in-process commands hold only the client side
  const server = await startServeLlm();
  // a slower server for the interrupted study, so that it can be killed half-way; only that
  // study's process talks to it
  const slow = await startLocalLlmServer({ port: 0, latencyMs: 25, responders: [sotopiaScriptResponder] });
  try {
    // before the in-process commands, which would hold the event loop that times the kill
    await interrupt(slow);
    fullRun = await study(full, server.url, '--json');
    fullJson = fullRun.code === 0 ? JSON.parse(fullRun.stdout) : {};
    // the first agents episode, run on its own with the same world parameters and episode seed
    const report = JSON.parse(read(join(full, 'report.json'))) as StudyReport;
    const first = report.episodes.find((e) => e.mode === 'agents')!;
    standalone = await cliChecked([
      'run',
      'sotopia',
      '--set',
      `scenario=${first.envId}`,
      '--set',
      'mode=agents',
      '--set',
      'maxTurns=4',
      '--set',
      'judgeModel=grapevine-local',
      '--seed',
      String(first.seed),
      '--log',
      'full',
      '--out',
      join(root, 'standalone.ndjson'),
      '--llm-base-url',
      server.url,
      '--model',
      'grapevine-local',
      '--json',
    ]);
    killedRerun = await study(killed, server.url, '--json');
    stagedFirst = await study(staged, server.url, '--max-episodes', '4', '--concurrency', '2', '--json');
    // a half-written log, as a crash mid-write leaves it
    const victim = join(staged, 'episodes', logsOf(staged)[1]);
    const text = read(victim);
    writeFileSync(victim, text.slice(0, Math.floor(text.length / 2)));
    stagedSecond = await study(staged, server.url, '--json', '--concurrency', '3');
  } finally {
    await Promise.all([server.close(), slow.close()]);
    closed = true;
  }
}, 900_000);

/**
 * Starts the study against the slow server, one episode at a time, and SIGKILLs it once two
 * episodes are done: a process of its own, as SIGKILL is what this case is about.
 */
async function interrupt(slow: LocalLlmServer): Promise<void> {
  let child: ChildProcess | undefined;
  const exited = cli(studyArgs(killed, slow.url, '--concurrency', '1', '--quiet'), {
    longLived: true,
    onSpawn: (c) => {
      child = c;
    },
  });
  for (let k = 0; k < 2000 && child?.exitCode === null; k++) {
    const done = logsOf(killed).filter((f) => isComplete(join(killed, 'episodes', f))).length;
    if (done >= 2) {
      child?.kill('SIGKILL');
      killedCompleteAtKill = done;
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await exited;
}

afterAll(() => {
  expect(closed).toBe(true);
});

describe('grapevine study sotopia', () => {
  it('runs every (scenario, pair, mode) and writes the report, the card and one log per episode', () => {
    expect(fullRun.stderr).toBe('');
    expect(fullRun.code).toBe(0);
    expect(fullJson).toMatchObject({
      total: EPISODES,
      ran: EPISODES,
      skipped: 0,
      complete: true,
      failed: [],
    });
    for (const f of STUDY_OUTPUTS) expect(existsSync(join(full, f)), f).toBe(true);
    expect(logsOf(full)).toHaveLength(EPISODES);
    expect(logsOf(full)).toContain(`mutual_friend_00001-${'C745KH9C'}-p0-mindreaders.ndjson`);
    const report = JSON.parse(read(join(full, 'report.json'))) as StudyReport;
    expect(report.modes.map((m) => m.mode)).toEqual(MODES);
    for (const m of report.modes) {
      expect(m.episodes).toBe(SCENARIOS.length);
      expect(m.dimensions.overall.n).toBe(SCENARIOS.length);
      expect(m.wordsPerTurn.mean).toBeGreaterThan(0);
    }
    expect(report.paired.map((p) => `${p.b}-${p.a}`)).toEqual([
      'script-agents',
      'mindreaders-agents',
      'mindreaders-script',
    ]);
    expect(report.craigslist.byMode.map((d) => d.episodes)).toEqual([1, 1, 1]);
    expect(report.mutualFriends.byMode.map((d) => d.episodes)).toEqual([1, 1, 1]);
    // the modes of a (scenario, pair) share one episode seed
    for (const s of SCENARIOS) {
      const seeds = report.episodes.filter((e) => e.envId === s || e.scenario === s).map((e) => e.seed);
      expect(new Set(seeds).size, s).toBe(1);
    }
    expect(read(join(full, 'report.html'))).toMatch(/^<!DOCTYPE html>[\s\S]*<svg [\s\S]*<\/html>\n$/);
    expect(JSON.parse(read(join(full, 'card.json')))).toMatchObject({
      agents: { model: 'grapevine-local' },
      interaction: { maxTurns: 4 },
    });
  });

  it('writes each episode exactly as `grapevine run` writes it with the same parameters and seed', () => {
    expect(standalone.code).toBe(0);
    const report = JSON.parse(read(join(full, 'report.json'))) as StudyReport;
    const first = report.episodes.find((e) => e.mode === 'agents')!;
    expect(JSON.parse(standalone.stdout).digest).toBe(first.digest);
  });

  it('every episode passes `replay --verify` with the server closed', async () => {
    expect(closed).toBe(true);
    const logs = logsOf(full);
    const outcomes: Outcome[] = [];
    for (const f of logs)
      outcomes.push(await cliChecked(['replay', join(full, 'episodes', f), '--verify', '--json']));
    outcomes.forEach((o, k) => {
      expect(o.stderr, logs[k]).toBe('');
      expect(o.code, logs[k]).toBe(0);
      expect(JSON.parse(o.stdout)).toMatchObject({ verified: true });
    });
  }, 600_000);

  it('the audit finds no leak in agents mode and only declared findings in mindreaders and script', async () => {
    let out = '';
    const code = await auditCommand(
      join(full, 'episodes'),
      { json: true },
      { out: (s) => (out += s), err: () => {} },
    );
    const audit = JSON.parse(out) as { logs: LogAudit[]; leaks: number; failed: number };
    expect(audit).toMatchObject({ leaks: 0, failed: 0 });
    expect(code).toBe(0);
    expect(audit.logs).toHaveLength(EPISODES);
    for (const a of audit.logs) {
      expect(a.prompts, a.log).toBeGreaterThan(0);
      expect(a.leaks, a.log).toEqual([]);
      if (a.log.endsWith('-agents.ndjson')) continue;
      expect(a.declared, a.log).toBeGreaterThan(0);
      for (const f of a.findings) expect(f.basis, a.log).toBe('declared');
      expect(new Set(a.findings.map((f) => f.kind)).has('secret'), a.log).toBe(true);
    }
  });
});

describe('an interrupted study, restarted', () => {
  it('killed after two episodes, it reruns only the rest and writes the same report, byte for byte', () => {
    expect(killedCompleteAtKill).toBeGreaterThanOrEqual(2);
    expect(killedRerun.stderr).toBe('');
    expect(killedRerun.code).toBe(0);
    const r = JSON.parse(killedRerun.stdout);
    expect(r).toMatchObject({ total: EPISODES, complete: true });
    expect(r.skipped).toBeGreaterThanOrEqual(2);
    expect(r.skipped).toBeLessThan(EPISODES);
    expect(r.skipped + r.ran).toBe(EPISODES);
    for (const f of STUDY_OUTPUTS) expect(read(join(killed, f)), f).toBe(read(join(full, f)));
  });

  it('stopped by --max-episodes and with a half-written log, it discards the partial log and ends the same', () => {
    expect(stagedFirst.code).toBe(0);
    expect(JSON.parse(stagedFirst.stdout)).toMatchObject({
      ran: 4,
      remaining: EPISODES - 4,
      complete: false,
      files: [],
    });
    expect(stagedSecond.stderr).toBe('');
    expect(stagedSecond.code).toBe(0);
    expect(JSON.parse(stagedSecond.stdout)).toMatchObject({
      skipped: 3,
      discarded: 1,
      ran: EPISODES - 3,
      complete: true,
    });
    for (const f of STUDY_OUTPUTS) expect(read(join(staged, f)), f).toBe(read(join(full, f)));
    for (const f of logsOf(full)) {
      const digest = (path: string) => read(path).trimEnd().split('\n').pop()!.slice(-18);
      expect(digest(join(staged, 'episodes', f)), f).toBe(digest(join(full, 'episodes', f)));
    }
  });
});

describe('bad input', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown mode', ['--modes', 'agents,telepathy'], /unknown mode "telepathy"/],
    [
      'an unknown scenario',
      ['--scenarios', 'mutual_friend_00001,no_such_scenario'],
      /no Sotopia scenario matches "no_such_scenario"/,
    ],
    [
      'an unknown source',
      ['--scenarios', 'source:nowhere'],
      /no Sotopia scenario matches "source:nowhere"[\s\S]*hint: sources: /,
    ],
    ['--pairs 0', ['--pairs', '0'], /--pairs must be an integer from 1 to 5, got "0"/],
    ['--pairs 6', ['--pairs', '6'], /--pairs must be an integer from 1 to 5, got "6"/],
    ['--concurrency 0', ['--concurrency', '0'], /--concurrency must be a positive integer/],
    ['an empty --judge-model', ['--judge-model', ''], /study sotopia needs --judge-model NAME/],
  ];

  it.each(cases)('%s: exit 2 with a clear message, nothing written', async (_name, extra, message) => {
    const out = join(root, `bad-${extra.join('_').replace(/[^\w]/g, '_')}`);
    const r = await cliChecked([
      'study',
      'sotopia',
      '--out',
      out,
      '--llm-base-url',
      'http://127.0.0.1:9/v1',
      '--judge-model',
      'same',
      ...extra,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^grapevine: /);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('a study directory with another config: exit 2, nothing changed', async () => {
    const before = read(join(full, 'report.json'));
    const r = await cliChecked(studyArgs(full, 'http://127.0.0.1:9/v1', '--seed', '6'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds a study with another config \(seed differ\)/);
    expect(read(join(full, 'report.json'))).toBe(before);
  });

  it('an endpoint that does not answer: exit 1, the logs kept as .failed, no report; a rerun retries them', async () => {
    const gone = await startLocalLlmServer({ port: 0, responders: [sotopiaScriptResponder] });
    await gone.close();
    const out = join(root, 'unreachable');
    const args = [...studyArgs(out, gone.url, '--llm-attempts', '1', '--modes', 'agents,script')];
    const r = await cliChecked(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /episode episodes\/\S+-agents\.ndjson failed: \d+ LLM call\(s\) failed after all retries \(LLM call failed \(connection\)/,
    );
    expect(r.stderr).toMatch(/hint: rerun the same command/);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    expect(logsOf(out)).toEqual([]);
    expect(readdirSync(join(out, 'episodes')).some((f) => f.endsWith('.ndjson.failed'))).toBe(true);
    const again = await cliChecked([...args, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ skipped: 0, ran: 0, complete: false });
  });

  it('no --out: exit 2', async () => {
    const r = await cliChecked(['study', 'sotopia', '--modes', 'agents']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs --out DIR/);
  });
});
