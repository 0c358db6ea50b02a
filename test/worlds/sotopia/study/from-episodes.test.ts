import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { importSotopia } from '../../../../worlds/sotopia/importer.ts';
import { readEpisodeLogs } from '../../../../worlds/sotopia/study/episode-log-reader.ts';
import {
  modeOfTag,
  parseModeFromTag,
  reanalyseEpisodes,
} from '../../../../worlds/sotopia/study/from-episodes.ts';
import type { StudyReport } from '../../../../worlds/sotopia/study/report.ts';
import { cli } from '../../../support/cli.ts';
import { tempDir } from '../../../support/temp-dir.ts';

const exec = promisify(execFile);
const grapevine = resolve('bin/grapevine.mjs');

// Two shipped environments (so their codenames resolve) and hand-chosen agent ids.
const E1 = '01H7VFHP3DPGRXH1Y500VQKFZA'; // divide_things
const E2 = '01H7VFHN56ZT2Z4C0EFX79Q31F'; // movie_to_watch
const A = 'Ann Lee';
const B = 'Bo Chen';

/** Per-agent rewards: six dimensions fixed (8, 2, 5, 0, 0, 1: sum 16) and `goal` chosen. */
function reward(goal: number): [number, Record<string, number>] {
  const d = {
    believability: 8,
    relationship: 2,
    knowledge: 5,
    secret: 0,
    social_rules: 0,
    financial_and_material_benefits: 1,
    goal,
  };
  return [(16 + goal) / 7, { ...d, overall_score: (16 + goal) / 7 }];
}

const env = (to: string): [string, string, string] => ['Environment', to, 'Turn #0: ...'];

/** A: said 2 words, B: did nothing; then A: did nothing, B: said 4 words → 2 turns, 6 words. */
const STANDARD = [
  [env(A), env(B), [A, 'Environment', 'said: "one two"'], [B, 'Environment', 'did nothing']],
  [env(A), env(B), [A, 'Environment', 'did nothing'], [B, 'Environment', 'said: "one two three four"']],
  [env(A), env(B)],
];
/** 3 words said, 1 word said, a 2-word action, a leave → 4 turns, 6 words. */
const LEAVING = [
  [env(A), env(B), [A, 'Environment', 'said: "Hello there friend"'], [B, 'Environment', 'did nothing']],
  [env(A), env(B), [A, 'Environment', 'did nothing'], [B, 'Environment', 'said: "Hi"']],
  [env(A), env(B), [A, 'Environment', '[action] waves goodbye'], [B, 'Environment', 'left the conversation']],
  [env(A), env(B)],
];

function episode(
  environment: string,
  agents: string[],
  tag: string,
  rewards: unknown[],
  messages = STANDARD,
) {
  return {
    pk: `pk-${environment}-${tag}-${agents[0]}`,
    environment,
    agents,
    tag,
    models: ['gpt-4', 'gpt-3.5-turbo', 'gpt-3.5-turbo'],
    messages,
    reasoning: 'hand-made',
    rewards,
    rewards_prompt: 'prompt',
  };
}

// The episodes (episode goal = mean of the two agents' goals):
// 1 E1 (c1, c2) agents  goals 4, 6 → 5     LEAVING: 4 turns, 6 words
// 2 E1 (c1, c2) script  goals 8, 8 → 8
// 3 E2 (c3, c4) agents  goals 2, 4 → 3
// 4 E2 (c3, c4) script  goals 7, 9 → 8
// 5 E2 (c5, c6) agents  goals 6, 6 → 6     no script partner: per-mode means only
// 6 E1 (c1, c2) script  rewards bare numbers → unscored
const EPISODES = [
  episode(E1, ['c1', 'c2'], 'gpt35_agents', [reward(4), reward(6)], LEAVING),
  episode(E1, ['c1', 'c2'], 'gpt35_script', [reward(8), reward(8)]),
  episode(E2, ['c3', 'c4'], 'gpt35_agents', [reward(2), reward(4)]),
  episode(E2, ['c3', 'c4'], 'gpt35_script', [reward(7), reward(9)]),
  episode(E2, ['c5', 'c6'], 'gpt35_agents', [reward(6), reward(6)]),
  episode(E1, ['c1', 'c2'], 'gpt35_script', [0, 0]),
];
const RULES = 'agents$=agents,script$=script';

let dir: string;
let file: string;
let report: StudyReport;

/** The report's scenario-level test of script − agents on one dimension. */
function test(d: string) {
  return report.statistics.tests.find((t) => t.dimension === d)!;
}

beforeAll(() => {
  dir = tempDir('from-episodes');
  file = join(dir, 'episodes.jsonl');
  writeFileSync(file, `${EPISODES.map((e) => JSON.stringify(e)).join('\n')}\n`);
  report = reanalyseEpisodes(readEpisodeLogs(file), {
    rules: parseModeFromTag(RULES),
    environments: importSotopia().environments,
    input: file,
  });
});

describe('reanalysis of Sotopia EpisodeLog records', () => {
  it('maps tags to modes, environments to scenarios, and counts scored episodes', () => {
    expect(report.study.modes).toEqual(['agents', 'script']);
    expect(report.study.scenarioCount).toBe(2);
    expect(report.study).toMatchObject({ episodes: 6, scored: 5, missing: 0 });
    expect(report.study.model).toBe('gpt-3.5-turbo vs gpt-3.5-turbo');
    expect(report.study.judgeModel).toBe('gpt-4');
    expect(report.episodes.map((e) => e.scenario)).toEqual([
      'divide_things',
      'divide_things',
      'movie_to_watch',
      'movie_to_watch',
      'movie_to_watch',
      'divide_things',
    ]);
    // E2's agent combinations in code-unit order: c3,c4 → pair 0, c5,c6 → pair 1
    expect(report.episodes.map((e) => e.pair)).toEqual([0, 0, 0, 0, 1, 0]);
    expect(report.episodes[0].log).toBe(`${file}:1`);
    expect(report.episodes[5].unscored).toBe(true);
  });

  it('gives per-mode means over every scored episode, partnered or not', () => {
    const [agents, script] = report.modes;
    // agents goal: episodes 5, 3, 6 → mean 14/3; deviations 1/3, −5/3, 4/3 → SS 42/9,
    // variance 7/3, SE √(7/9) = 0.8819
    expect(agents.dimensions.goal.n).toBe(3);
    expect(agents.dimensions.goal.mean).toBeCloseTo(14 / 3, 12);
    expect(agents.dimensions.goal.se).toBeCloseTo(Math.sqrt(7 / 9), 12);
    // seat 0 goals 4, 2, 6 → 4; seat 1 goals 6, 4, 6 → 16/3
    expect(agents.dimensions.goal.agent0.mean).toBeCloseTo(4, 12);
    expect(agents.dimensions.goal.agent1.mean).toBeCloseTo(16 / 3, 12);
    // overall = (16 + goal) / 7 per agent → (16 + 14/3) / 7 = 62/21
    expect(agents.dimensions.overall.mean).toBeCloseTo(62 / 21, 12);
    // script: 8, 8 (the bare-number episode is unscored) → 8, SE 0
    expect(script).toMatchObject({ episodes: 3, scored: 2 });
    expect(script.dimensions.goal.mean).toBe(8);
    expect(script.dimensions.goal.se).toBe(0);
    expect(script.dimensions.believability.mean).toBe(8);
  });

  it('counts turns and words without "did nothing" turns', () => {
    const [agents, script] = report.modes;
    // episode 1: 4 turns (said, said, action, leave), 3 + 1 + 2 + 0 = 6 words → 1.5;
    // episodes 3 and 5: 2 turns, 2 + 4 = 6 words → 3
    expect(report.episodes[0]).toMatchObject({ turns: 4, words: 6, wordsPerTurn: 1.5, endReason: 'leave' });
    expect(report.episodes[2]).toMatchObject({ turns: 2, words: 6, wordsPerTurn: 3, endReason: 'recorded' });
    // mean (1.5 + 3 + 3) / 3 = 2.5; pooled 18 words / 8 turns = 2.25; turns (4 + 2 + 2) / 3
    expect(agents.wordsPerTurn.mean).toBeCloseTo(2.5, 12);
    expect(agents.wordsPerTurn.pooled).toBeCloseTo(2.25, 12);
    expect(agents.turns.mean).toBeCloseTo(8 / 3, 12);
    expect(script.wordsPerTurn.mean).toBe(3);
    expect(agents.endReasons).toEqual({ leave: 1, recorded: 2 });
  });

  it('pairs modes over the (environment, agents) units both scored, at the scenario level', () => {
    expect(report.statistics.tests.map((t) => [t.a, t.b, t.dimension])).toEqual(
      report.dimensions.map((d) => ['agents', 'script', d]),
    );
    const goal = test('goal');
    // units in both: E1/c1c2 (agents 5, script 8) and E2/c3c4 (agents 3, script 8); E2/c5c6
    // has no script partner and is left out. Differences 3, 5: mean 4, SD √2, SE 1, t 4, df 1.
    expect(goal).toMatchObject({ n: 2, meanDiff: 4, df: 1 });
    // the report's paired-differences table pairs the same units
    expect(report.paired[0].dimensions.goal).toMatchObject({ n: 2, meanDiff: 4, df: 1 });
    expect(goal.t).toBeCloseTo(4, 12);
    // df 1 is the Cauchy distribution: p = 1 − (2/π)·atan(4) = 0.1559582607
    expect(goal.p).toBeCloseTo(1 - (2 / Math.PI) * Math.atan(4), 10);
    // 95% CI 4 ± t(0.975, 1)·1 with t(0.975, 1) = tan(0.475π) = 12.70620474
    expect(goal.ci95[0]).toBeCloseTo(4 - 12.70620474, 6);
    expect(goal.ci95[1]).toBeCloseTo(4 + 12.70620474, 6);
    // d_z = 4 / √2 = 2.828427; SE √(1/2 + 8/4) = √2.5; 95% CI ± 1.959964·√2.5 = ± 3.099018
    expect(goal.dz).toBeCloseTo(2 * Math.SQRT2, 12);
    expect(goal.dzCi95[0]).toBeCloseTo(2 * Math.SQRT2 - 1.959963985 * Math.sqrt(2.5), 6);
    expect(goal.dzCi95[1]).toBeCloseTo(2 * Math.SQRT2 + 1.959963985 * Math.sqrt(2.5), 6);
  });

  it('adjusts p by Holm over the comparisons that have one', () => {
    const dims = Object.fromEntries(report.dimensions.map((d) => [d, test(d)]));
    // the six fixed dimensions do not vary: no test, no p. goal and overall (differences
    // 3/7, 5/7: t 4 as well) have p = 0.1559582607 each; Holm with m = 2: 2 × p for the
    // smaller, max(that, 1 × p) for the other → both 0.3119165214
    expect(dims.believability.p).toBeNull();
    expect(dims.believability.pHolm).toBeNull();
    expect(dims.overall.p).toBeCloseTo(dims.goal.p!, 12);
    const p = 1 - (2 / Math.PI) * Math.atan(4);
    expect(dims.goal.pHolm).toBeCloseTo(2 * p, 10);
    expect(dims.overall.pHolm).toBeCloseTo(2 * p, 10);
  });

  it('defaults the mode to the tag itself, and untagged', () => {
    expect(modeOfTag('gpt35_script', [])).toBe('gpt35_script');
    expect(modeOfTag(null, parseModeFromTag(RULES))).toBe('untagged');
    expect(modeOfTag('other', parseModeFromTag(RULES))).toBe('other');
    expect(() => parseModeFromTag('nomode')).toThrow(/PATTERN=MODE/);
  });
});

function run(args: string[]) {
  return cli(args, { bin: grapevine });
}

describe('grapevine study sotopia --from-episodes', () => {
  it('writes report.json/md/html with the same numbers', async () => {
    const out = join(dir, 'out');
    const r = await run([
      'study',
      'sotopia',
      '--from-episodes',
      file,
      '--out',
      out,
      '--mode-from-tag',
      RULES,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).episodes).toBe(6);
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as StudyReport;
    expect(json.statistics.tests.find((t) => t.dimension === 'goal')!.meanDiff).toBe(4);
    expect(json.modes[0].dimensions.goal.mean).toBeCloseTo(14 / 3, 8);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('### script − agents');
    // goal: n 2, diff 4, CI 4 ∓ 12.71, p 0.156, Holm 0.312, d_z 2.83, CI 2.83 ∓ 3.10
    expect(md).toContain(
      '| script − agents | goal | 2 | 4.00 | -8.71 .. 16.71 | 0.156 | 0.312 | 2.83 | -0.27 .. 5.93 |',
    );
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  }, 90_000);

  it('reads a JSON array in a directory and names a bad record by file:index; exit 2, nothing written', async () => {
    const bad = join(dir, 'bad-dir');
    const out = join(dir, 'bad-out');
    const three = { ...EPISODES[1], rewards: [reward(1), reward(2), reward(3)] };
    await exec('mkdir', ['-p', bad]);
    writeFileSync(join(bad, 'a.json'), JSON.stringify([EPISODES[0], three]));
    const r = await run(['study', 'sotopia', '--from-episodes', bad, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(bad, 'a.json')}:1: rewards: one reward per agent is needed`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  }, 90_000);

  it('names a bad JSON Lines record by file:line and what is wrong; exit 2', async () => {
    const bad = join(dir, 'bad.jsonl');
    const { rewards_prompt: _drop, ...noPrompt } = EPISODES[2];
    writeFileSync(bad, `${JSON.stringify(EPISODES[0])}\n${JSON.stringify(noPrompt)}\n{oops\n`);
    const r = await run(['study', 'sotopia', '--from-episodes', bad, '--out', join(dir, 'bad-out2')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:2: rewards_prompt:`);
    expect(r.stderr).toContain(`${bad}:3: not JSON`);
    expect(existsSync(join(dir, 'bad-out2'))).toBe(false);
  }, 90_000);
});
