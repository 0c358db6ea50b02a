import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCommand, type LogAudit } from '../../../src/cli/commands/audit.ts';
import { LineCodec } from '../../../src/replay/format/line-codec.ts';
import { DIMENSION_NAMES } from '../../../worlds/sotopia/dimensions.ts';
import { importSotopia } from '../../../worlds/sotopia/importer.ts';
import type { SotopiaSummary } from '../../../worlds/sotopia/summary.ts';
import { type CheckedOutcome, cliChecked } from '../../support/cli-in-process.ts';
import { startServeLlm } from '../../support/serve-llm-child.ts';
import { tempDir } from '../../support/temp-dir.ts';

const dir = tempDir('sotopia-runs');
const FIRST = importSotopia().environments[0].env_id;
const MAX_TURNS = 6;

type Outcome = CheckedOutcome;

// The commands run in this process (cliChecked: what each decides and writes; one at a time,
// no resource left open), on the built-in world by its id: its file, worlds/sotopia/index.ts,
// would first be type-checked against the engine's sources, a cold check of ~15 CPU-s that
// these cases are not about (a log of a world file read with --world, audit included, is
// test/cli/world-responders.test.ts's).

interface Episode {
  name: string;
  mode: string;
  scenario: string;
  pair?: number;
  extra?: string[];
}

/** Agents mode over two scenarios (goal texts shared by both characters; environment-only markup), and the other modes. */
const EPISODES: Episode[] = [
  { name: 'agents-first', mode: 'agents', scenario: FIRST },
  { name: 'agents-mutual', mode: 'agents', scenario: 'mutual_friend_00001' },
  { name: 'mindreaders', mode: 'mindreaders', scenario: 'mutual_friend_00001', pair: 2 },
  {
    name: 'script',
    mode: 'script',
    scenario: FIRST,
    extra: ['--set', 'judgeModel=judge-model', '--seed', '3'],
  },
  { name: 'playwright', mode: 'playwright', scenario: 'mutual_friend_00001' },
];

const logs = join(dir, 'logs');
mkdirSync(logs);
const logOf = (e: Episode) => join(logs, `${e.name}.ndjson`);
const results = new Map<
  string,
  { outcome: Outcome; summary?: SotopiaSummary; raw?: Record<string, unknown> }
>();
let closed = false;

function events(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
}

beforeAll(async () => {
  // a process of its own: the test process holds only the client side
  const server = await startServeLlm();
  try {
    for (const e of EPISODES) {
      const outcome = await cliChecked([
        'run',
        'sotopia',
        '--set',
        `mode=${e.mode}`,
        '--set',
        `scenario=${e.scenario}`,
        '--set',
        `pair=${e.pair ?? 0}`,
        '--set',
        `maxTurns=${MAX_TURNS}`,
        ...(e.extra ?? []),
        '--log',
        'full',
        '--out',
        logOf(e),
        '--json',
        '--llm-base-url',
        server.url,
        '--model',
        'grapevine-local',
      ]);
      const raw = outcome.code === 0 ? JSON.parse(outcome.stdout) : undefined;
      results.set(e.name, { outcome, raw, summary: raw?.summary });
    }
  } finally {
    await server.close();
    closed = true;
  }
}, 400_000);

afterAll(() => {
  expect(closed).toBe(true);
});

describe.each(EPISODES)('an episode in $name', (e) => {
  it('runs against the local server and summarises the episode', () => {
    const r = results.get(e.name)!;
    expect(r.outcome.stderr).toBe('');
    expect(r.outcome.code).toBe(0);
    expect(r.raw).toMatchObject({ world: 'sotopia', reason: 'episode-end', size: 3 });
    const s = r.summary!;
    expect(s.mode).toBe(e.mode);
    expect([s.envId, s.codename]).toContain(e.scenario);
    expect(s.pair).toBe(e.pair ?? 0);
    expect(['leave', 'max-turns', 'idle', 'script-end']).toContain(s.endReason);
    expect(s.turns).toBe(s.transcript.length);
    expect(s.turns).toBeGreaterThan(0);
    // zhou2024 ends when the turn number exceeds maxTurns: at most maxTurns + 1 turns
    expect(s.turns).toBeLessThanOrEqual(MAX_TURNS + 1);
    expect(s).toMatchObject({ protocol: 'zhou2024', missing: false });
    s.transcript.forEach((t, k) => {
      expect(t.turn).toBe(k + 1);
      expect([0, 1]).toContain(t.speaker);
      expect(t.name).toBe(s.agents[t.speaker].name);
      if (e.mode !== 'script') expect(t.speaker).toBe(k % 2);
    });
    expect(s.words).toBe(s.wordsBySeat[0] + s.wordsBySeat[1]);
    expect(s.judge).toMatchObject({ fallback: false, errors: [] });
    for (const agent of ['agent0', 'agent1'] as const) {
      const sc = s.scores![agent];
      for (const d of DIMENSION_NAMES) {
        expect(Number.isInteger(sc[d])).toBe(true);
        expect(sc.reasoning[d]).toEqual(expect.any(String));
      }
      expect(sc.overall).toBeCloseTo(DIMENSION_NAMES.reduce((n, d) => n + sc[d], 0) / 7, 12);
    }
  });

  it('logs each turn as a message and each LLM call with its caller', () => {
    const s = results.get(e.name)!.summary!;
    const lines = events(logOf(e));
    const turns = lines.filter((l) => l.type === 'send' && l.kind === 'turn');
    expect(turns.map((l) => l.payload)).toEqual(s.transcript);
    const calls = lines.filter((l) => l.type === 'llm');
    const callers = calls.map((l) => l.caller);
    expect(callers[callers.length - 1]).toBe('judge');
    const turnCalls = callers.slice(0, -1);
    if (e.mode === 'script') expect(turnCalls).toEqual(['2']);
    else if (e.mode === 'playwright') expect(turnCalls).toEqual(s.transcript.map(() => '2'));
    else expect(turnCalls).toEqual(s.transcript.map((t) => String(t.speaker)));
    const judge = calls[calls.length - 1] as { params: { model: string } };
    expect(judge.params.model).toBe(e.mode === 'script' ? 'judge-model' : 'grapevine-local');
  });
});

describe('replay and audit', () => {
  it('every episode passes `replay --verify` with the server closed', async () => {
    expect(closed).toBe(true);
    const outcomes: Outcome[] = [];
    for (const e of EPISODES) outcomes.push(await cliChecked(['replay', logOf(e), '--verify', '--json']));
    outcomes.forEach((o, k) => {
      expect(o.stderr, EPISODES[k].name).toBe('');
      expect(o.code, EPISODES[k].name).toBe(0);
      expect(JSON.parse(o.stdout)).toMatchObject({ verified: true });
    });
  }, 120_000);

  it('finds no leak in agents mode, only declared findings in the other modes', async () => {
    let out = '';
    const code = await auditCommand(logs, { json: true }, { out: (s) => (out += s), err: () => {} });
    expect(code).toBe(0);
    const report = JSON.parse(out) as { logs: LogAudit[]; leaks: number; failed: number };
    expect(report).toMatchObject({ leaks: 0, failed: 0 });
    for (const e of EPISODES) {
      const a = report.logs.find((l) => l.log === logOf(e))!;
      expect(a.world, e.name).toBe('sotopia');
      expect(a.leaks, e.name).toEqual([]);
      expect(a.prompts, e.name).toBeGreaterThan(0);
      if (e.mode !== 'agents') {
        expect(a.declared, e.name).toBeGreaterThan(0);
        expect(a.observed, e.name).toBe(0);
        const kinds = new Set(a.findings.map((f) => f.kind));
        expect(kinds.has('goal') || kinds.has('goal-info'), e.name).toBe(true);
        expect(kinds.has('secret'), e.name).toBe(true);
      }
      // environment-only notes (MutualFriends' common friends) reach mindreaders and the writer, never agents
      const env = a.findings.filter((f) => f.kind === 'environment');
      if (e.mode === 'agents') expect(env, e.name).toEqual([]);
      else if (e.scenario.startsWith('mutual_friend')) expect(env.length, e.name).toBeGreaterThan(0);
    }
  });

  it('reports a leak (exit 1) when the rules did not allow what a prompt holds', async () => {
    // the mindreaders log, relabelled as an agents-mode run: partner goals and secrets are now leaks
    const raw = readFileSync(logOf(EPISODES.find((e) => e.mode === 'mindreaders')!), 'utf8')
      .trimEnd()
      .split('\n');
    const header = JSON.parse(raw[0]);
    header.params.mode = 'agents';
    raw[0] = JSON.stringify(header);
    const enc = new LineCodec();
    let prev: string | null = null;
    const out = raw.map((line) => {
      const { h: _h, ...obj } = JSON.parse(line);
      const encoded = enc.encode(obj, prev);
      prev = encoded.chain;
      return encoded.text;
    });
    const forged = join(dir, 'relabelled.ndjson');
    writeFileSync(forged, `${out.join('\n')}\n`);
    let text = '';
    const code = await auditCommand(forged, {}, { out: (s) => (text += s), err: () => {} });
    expect(code).toBe(1);
    expect(text).toMatch(/leak: seq \d+ tick \d+: agent [01]'s prompt holds agent [01]'s (goal|secret)/);
  });

  it('an unreadable log is exit 2', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'garbage.ndjson'), 'not a log\n');
    let err = '';
    const code = await auditCommand(bad, {}, { out: () => {}, err: (s) => (err += s) });
    expect(code).toBe(2);
    expect(err).toContain('could not be audited');
  });
});
