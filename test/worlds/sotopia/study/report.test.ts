import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holm, pairedTTest as statsPairedTTest, wilson } from '../../../../src/stats/index.ts';
import { DIMENSION_NAMES } from '../../../../worlds/sotopia/dimensions.ts';
import { importSotopia } from '../../../../worlds/sotopia/importer.ts';
import type { SotopiaEnvironment } from '../../../../worlds/sotopia/records.ts';
import { buildCard, renderCardMarkdown } from '../../../../worlds/sotopia/study/card.ts';
import {
  detectDeal,
  firstMention,
  friendNames,
  pricesIn,
  priceTargets,
  sharedFriends,
} from '../../../../worlds/sotopia/study/detectors.ts';
import {
  episodeParams,
  episodeSeed,
  planStudy,
  resolveStudyConfig,
  type StudyConfig,
} from '../../../../worlds/sotopia/study/plan.ts';
import { buildReport, renderReportMarkdown, reportJson } from '../../../../worlds/sotopia/study/report.ts';
import { renderReportHtml } from '../../../../worlds/sotopia/study/report-html.ts';
import { type EpisodeResult, REPORT_DIMENSIONS } from '../../../../worlds/sotopia/study/report-rows.ts';
import { checkStudyDir, STUDY_FILE, STUDY_FORMAT } from '../../../../worlds/sotopia/study/runner.ts';
import { meanSe, pairedTTest } from '../../../../worlds/sotopia/study/stats.ts';
import type { SotopiaSummary } from '../../../../worlds/sotopia/summary.ts';
import type { TurnRecord } from '../../../../worlds/sotopia/transcript.ts';
import { tempDir } from '../../../support/temp-dir.ts';

const data = importSotopia();
const env = (codename: string) => data.environments.find((e) => e.codename === codename)!;

function turns(...texts: string[]): TurnRecord[] {
  return texts.map((text, k) => ({
    turn: k + 1,
    speaker: k % 2,
    name: k % 2 ? 'B' : 'A',
    action: 'speak',
    text,
    fallback: false,
  }));
}

type Dims = Record<(typeof DIMENSION_NAMES)[number], number>;

/** Seven scores from one base value (all within range). */
function dims(base: number): Dims {
  return {
    believability: base,
    relationship: base - 5,
    knowledge: base,
    secret: -base,
    social_rules: -1,
    financial_and_material_benefits: 0,
    goal: base,
  };
}

function agentScores(d: Dims) {
  const overall = DIMENSION_NAMES.reduce((n, k) => n + d[k], 0) / 7;
  return { ...d, overall, reasoning: Object.fromEntries(DIMENSION_NAMES.map((k) => [k, 'r'])) };
}

function result(
  e: SotopiaEnvironment,
  mode: 'agents' | 'script',
  transcript: TurnRecord[],
  scores: [number, number] | null,
): EpisodeResult {
  const summary = {
    envId: e.env_id,
    codename: e.codename,
    source: e.source,
    mode,
    pair: 0,
    relationship: e.relationship,
    agents: [],
    endReason: 'max-turns',
    turns: transcript.length,
    words: transcript.reduce((n, t) => n + (t.text.trim() ? t.text.trim().split(/\s+/).length : 0), 0),
    wordsBySeat: [0, 0],
    fallbackTurns: 0,
    transcript,
    scores: scores ? { agent0: agentScores(dims(scores[0])), agent1: agentScores(dims(scores[1])) } : null,
    judge: { model: 'm', fallback: scores === null, errors: [] },
  } as unknown as SotopiaSummary;
  return {
    episode: {
      envId: e.env_id,
      codename: e.codename,
      source: e.source,
      pair: 0,
      mode,
      seed: episodeSeed(1, e.env_id, 0),
      log: `episodes/${e.codename}-${mode}.ndjson`,
      unit: `${e.env_id}/p0`,
    },
    summary,
    digest: 'd'.repeat(64),
    reason: 'episode-end',
  };
}

const bargain = env('craigslist_bargains_00000');
const friends = env('mutual_friend_00001');
const other = data.environments.find((e) => e.source === 'social_iqa')!;
const config: StudyConfig = {
  kind: 'sotopia',
  modes: ['agents', 'script'],
  scenarios: [bargain.codename, friends.codename, other.env_id].join(','),
  pairs: 1,
  seed: 1,
  maxTurns: 20,
  model: 'grapevine-local',
  judgeModel: 'judge',
  judgeSame: false,
  protocol: 'zhou2024',
  rubric: 'basic',
  models: null,
  templates: '',
  templateHashes: {},
  data: '',
};
const environments = [bargain, friends, other].sort(
  (a, b) => data.environments.indexOf(a) - data.environments.indexOf(b),
);
const results: EpisodeResult[] = [
  result(bargain, 'agents', turns('It is $500.', 'I can pay $450.', 'Deal!'), [4, 6]),
  result(bargain, 'script', turns('It is $500.', 'No deal at $500.', 'Is $480 a deal?'), [8, 8]),
  result(
    friends,
    'agents',
    turns('Hi there', 'Do you know anyone from Sony?', 'Yes, harvey works there!', 'Nice'),
    [2, 2],
  ),
  result(friends, 'script', turns('Harvey is my friend', 'Mine too'), [9, 7]),
  result(other, 'agents', turns('one two three', ''), [5, 5]),
  result(other, 'script', turns('a b'), null),
];
const report = buildReport(config, environments, results);

describe('report maths on synthetic summaries', () => {
  it('averages the two characters per episode and gives mean, SE and n per mode and dimension', () => {
    const agents = report.modes[0];
    expect(agents).toMatchObject({ mode: 'agents', episodes: 3, scored: 3 });
    // goal: episode means 5, 2, 5
    expect(agents.dimensions.goal).toMatchObject(meanSe([5, 2, 5]));
    expect(agents.dimensions.goal.agent0).toEqual(meanSe([4, 2, 5]));
    expect(agents.dimensions.goal.agent1).toEqual(meanSe([6, 2, 5]));
    expect(agents.dimensions.relationship.mean).toBeCloseTo(4 - 5, 12);
    const overall = (b: number) => DIMENSION_NAMES.reduce((n, k) => n + dims(b)[k], 0) / 7;
    expect(agents.dimensions.overall.mean).toBeCloseTo(
      ((overall(4) + overall(6)) / 2 + overall(2) + overall(5)) / 3,
      12,
    );
    const script = report.modes[1];
    expect(script).toMatchObject({ episodes: 3, scored: 2 });
    expect(script.dimensions.goal).toMatchObject(meanSe([8, 8]));
    expect(Object.keys(agents.dimensions)).toEqual([...REPORT_DIMENSIONS]);
  });

  it('pairs modes over the (scenario, pair) units both scored, b − a', () => {
    expect(report.paired.map((p) => [p.a, p.b])).toEqual([['agents', 'script']]);
    const goal = report.paired[0].dimensions.goal;
    // units scored by both: the bargain (5 → 8) and the friends (2 → 8); the social_iqa script episode is unscored
    expect(goal).toEqual(pairedTTest([5, 2], [8, 8]));
    expect(goal).toMatchObject({ n: 2, meanDiff: 4.5, df: 1 });
    expect(goal.p).toBeGreaterThan(0);
    expect(goal.p).toBeLessThan(1);
  });

  it('leaves a missing episode out of every figure and counts it per mode', () => {
    const lost = result(bargain, 'script', [], null);
    lost.summary.missing = true;
    lost.summary.endReason = 'no-script';
    const others = results.filter(
      (r) => !(r.episode.envId === bargain.env_id && r.episode.mode === 'script'),
    );
    const r = buildReport(config, environments, [...others, lost]);
    expect(r.modes.map((m) => [m.mode, m.episodes, m.scored, m.missing])).toEqual([
      ['agents', 3, 3, 0],
      ['script', 3, 1, 1],
    ]);
    expect(r.study.missing).toBe(1);
    expect(r.craigslist.byMode[1]).toMatchObject({ episodes: 0, deals: 0, rate: null });
    expect(r.modes[1].turns.n).toBe(2);
    expect(renderReportMarkdown(r)).toContain('1 missing (agents 0, script 1)');
  });

  it('tests modes at the scenario level with Holm, Wilson and McNemar from src/stats', () => {
    const st = report.statistics;
    expect(st.tests).toHaveLength(REPORT_DIMENSIONS.length);
    const goal = st.tests.find((t) => t.dimension === 'goal')!;
    const ref = statsPairedTTest([5, 2], [8, 8]);
    expect(goal).toMatchObject({ a: 'agents', b: 'script', n: 2, meanDiff: 4.5, df: 1 });
    expect(goal.p).toBeCloseTo(ref.p, 12);
    expect(goal.dz).toBeCloseTo(ref.dz, 12);
    const adjusted = holm(st.tests.map((t) => t.p ?? Number.NaN));
    st.tests.forEach((t, k) => {
      expect(t.pHolm).toBe(Number.isNaN(adjusted[k]) ? null : adjusted[k]);
    });
    const w = wilson(1, 1);
    expect(st.deal.rates[0]).toEqual({ mode: 'agents', successes: 1, n: 1, rate: 1, ci95: [w.lo, w.hi] });
    // the one bargain unit: a deal in agents, none in script
    expect(st.deal.mcnemar[0]).toMatchObject({
      a: 'agents',
      b: 'script',
      onlyA: 1,
      onlyB: 0,
      exact: true,
      p: 1,
    });
    expect(st.found.rates.map((r) => [r.successes, r.n])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(renderReportMarkdown(report)).toContain('## Tests across modes (scenario level, Holm-adjusted)');
  });

  it('counts words per turn per episode and pooled', () => {
    const agents = report.modes[0];
    // bargain: 3+4+1 words / 3 turns; friends: 2+6+4+1 / 4 turns; other: 3+0 / 2 turns
    expect(agents.wordsPerTurn).toMatchObject({ ...meanSe([8 / 3, 13 / 4, 3 / 2]), pooled: 24 / 9 });
    expect(agents.turns).toEqual(meanSe([3, 4, 2]));
  });

  it('finds the deal in Craigslist episodes only, and first mentions in MutualFriends episodes only', () => {
    expect(report.craigslist.byMode).toEqual([
      // targets of craigslist_bargains_00000: buyer $454, seller $610; agreed $450 → (450 − 454) / (610 − 454)
      { mode: 'agents', episodes: 1, deals: 1, rate: 1, se: 0, position: meanSe([-4 / 156]) },
      { mode: 'script', episodes: 1, deals: 0, rate: 0, se: 0, position: meanSe([]) },
    ]);
    const rows = report.episodes;
    expect(rows[0].deal).toEqual({ deal: true, turn: 3, price: 450, position: -4 / 156 });
    expect(priceTargets(bargain)).toEqual({ buyer: 454, seller: 610 });
    expect(report.mutualFriends.byMode[0].turn).toEqual({ n: 1, mean: 3, se: null });
    expect(rows.filter((r) => r.deal).map((r) => r.source)).toEqual([
      'craigslist_bargains',
      'craigslist_bargains',
    ]);
    expect(report.mutualFriends.byMode[0]).toMatchObject({
      mode: 'agents',
      episodes: 1,
      mentioned: 1,
      rate: 1,
    });
    expect(report.mutualFriends.byMode[0].position).toEqual({ n: 1, mean: 3 / 4, se: null });
    expect(report.mutualFriends.byMode[1].position).toEqual({ n: 1, mean: 1 / 2, se: null });
    expect(rows.find((r) => r.source === 'mutual_friends')!.mention).toMatchObject({
      turn: 3,
      name: 'Harvey',
      shared: ['Harvey'],
    });
  });

  it('renders JSON, Markdown and a self-contained HTML page deterministically', () => {
    const again = buildReport(config, environments, results);
    expect(reportJson(again)).toBe(reportJson(report));
    expect(renderReportMarkdown(again)).toBe(renderReportMarkdown(report));
    const md = renderReportMarkdown(report);
    expect(md).toContain('### script − agents');
    expect(md).toContain('| goal | 0..10 | 4.00 ± 1.00 (n=3) | 8.00 ± 0.00 (n=2) |');
    const html = renderReportHtml(report);
    // one bar chart per dimension, and the two dot-and-whisker plots (test/study/report-plots.test.ts)
    expect(html.match(/<svg /g)).toHaveLength(REPORT_DIMENSIONS.length + 2);
    expect(html).not.toMatch(/<script|<link|src=|href=|url\(/);
    expect(JSON.parse(reportJson(report)).episodes).toHaveLength(6);
  });
});

describe('detectors', () => {
  it('deal: acceptance after a price, not negated, not a question', () => {
    expect(detectDeal(turns('$300?', 'Deal.'))).toEqual({ deal: true, turn: 2, price: 300 });
    expect(detectDeal(turns('How about 250 dollars?', "Fine, you've got a deal"))).toMatchObject({
      deal: true,
      price: 250,
    });
    expect(detectDeal(turns('I want $300', 'It’s a deal, see you tomorrow'))).toMatchObject({ deal: true });
    expect(detectDeal(turns('I offer $300', 'I accept your offer.'))).toMatchObject({ deal: true });
    expect(detectDeal(turns('Sold for $40!', 'Great'))).toMatchObject({ deal: false }); // first turn only
    expect(detectDeal(turns('Hello', 'Sold!'))).toMatchObject({ deal: false }); // no price yet
    expect(detectDeal(turns('I offer $300', 'That is not a deal for me.'))).toMatchObject({ deal: false });
    expect(detectDeal(turns('I offer $300', "I don't accept that"))).toMatchObject({ deal: false });
    expect(detectDeal(turns('I offer $300', 'Do we have a deal?'))).toMatchObject({ deal: false });
    // one-sided: the seller accepts its own price, the buyer never agrees
    expect(detectDeal(turns('I offer $300', 'Hmm, let me think', 'Deal!'))).toMatchObject({ deal: false });
    expect(detectDeal(turns('I offer $300', 'No deal.', '$350 then', 'Agreed.'))).toEqual({
      deal: true,
      turn: 4,
      price: 350,
    });
    expect(pricesIn('$1,200.50 or 900 bucks')).toEqual([1200.5, 900]);
  });

  it('mutual friends: names on both lists, else the environment note; whole-word first mention', () => {
    expect(friendNames(friends.agent_goals[1])).toContain('Harvey');
    expect(friendNames(friends.agent_goals[0])).not.toContain('You know the following friends');
    for (const e of data.environments.filter((x) => x.source === 'mutual_friends'))
      expect(sharedFriends(e).length, e.codename).toBeGreaterThan(0);
    expect(
      sharedFriends({
        agent_goals: ['no list', 'none'],
        scenario: '<p viewer="environment">They have 1 common friends: Ann.</p>',
      }),
    ).toEqual(['Ann']);
    expect(firstMention(turns('Harveys', "harvey's dog", 'x', 'y'), ['Harvey'])).toEqual({
      turn: 2,
      position: 0.5,
      name: 'Harvey',
    });
    expect(firstMention(turns('nobody'), ['Harvey'])).toEqual({ turn: null, position: null, name: null });
  });
});

describe('study directories', () => {
  it('refuses a study directory made before protocols existed, with a clear message', () => {
    const d = tempDir('old-study');
    const {
      protocol: _p,
      judgeSame: _j,
      rubric: _r,
      models: _m,
      templates: _t,
      templateHashes: _h,
      ...old
    } = config;
    writeFileSync(join(d, STUDY_FILE), JSON.stringify({ format: STUDY_FORMAT, config: old }));
    expect(() => checkStudyDir(d, config)).toThrow(/made before protocols existed .*grapevine-v0/);
    writeFileSync(join(d, STUDY_FILE), JSON.stringify({ format: STUDY_FORMAT, config }));
    expect(checkStudyDir(d, config)).toBe('resume');
  });

  it('a zhou2024 study made before `parsing` existed resumes with parsing=reask and is refused with sotopia', () => {
    const d = tempDir('parsing-study');
    writeFileSync(join(d, STUDY_FILE), JSON.stringify({ format: STUDY_FORMAT, config }));
    expect(checkStudyDir(d, { ...config, parsing: 'reask', repairModel: '' })).toBe('resume');
    expect(() => checkStudyDir(d, { ...config, parsing: 'sotopia', repairModel: '' })).toThrow(/parsing/);
  });
});

describe('plan and card', () => {
  it('gives every mode of a (scenario, pair) the same seed and its own log', () => {
    const { config: c, data: d } = resolveStudyConfig({
      modes: 'agents,script,mindreaders',
      scenarios: 'divide_things,source:craigslist_bargains',
      pairs: '2',
      seed: '7',
      model: 'm',
      judgeModel: 'same',
    });
    const plan = planStudy(c, d);
    expect(plan.environments).toHaveLength(18);
    expect(plan.episodes).toHaveLength(18 * 2 * 3);
    expect(new Set(plan.episodes.map((e) => e.log)).size).toBe(plan.episodes.length);
    for (const unit of new Set(plan.episodes.map((e) => e.unit))) {
      const eps = plan.episodes.filter((e) => e.unit === unit);
      expect(eps.map((e) => e.mode)).toEqual(['agents', 'script', 'mindreaders']);
      expect(new Set(eps.map((e) => e.seed)).size).toBe(1);
      expect(Number.isSafeInteger(eps[0].seed)).toBe(true);
    }
    expect(episodeSeed(7, plan.environments[0].env_id, 0)).not.toBe(
      episodeSeed(8, plan.environments[0].env_id, 0),
    );
    expect(c).toMatchObject({ judgeModel: 'm', judgeSame: true, protocol: 'zhou2024', models: null });
    // the judge is never defaulted; --models A,B runs every (scenario, pair, mode) in both seatings
    expect(() => resolveStudyConfig({ scenarios: 'divide_things', model: 'm' })).toThrow(/--judge-model/);
    const two = resolveStudyConfig({
      scenarios: 'source:craigslist_bargains',
      model: 'm',
      judgeModel: 'j',
      models: 'a,b',
    });
    const first = planStudy(two.config, two.data).episodes.slice(0, 2);
    expect(first.map((e) => [e.order, e.seatModels])).toEqual([
      ['ab', ['a', 'b']],
      ['ba', ['b', 'a']],
    ]);
    expect(episodeParams(two.config, first[1])).toMatchObject({
      seatModels: ['b', 'a'],
      protocol: 'zhou2024',
      judgeModel: 'j',
    });
    expect(() =>
      resolveStudyConfig({ scenarios: 'divide_things', model: 'm', judgeModel: 'j', models: 'a' }),
    ).toThrow(/--models/);
  });

  it('writes a card with modes, models, turns and provenance', () => {
    const card = buildCard(config, data, environments);
    expect(card.simulation.kind).toBe('multi-agent and single-agent, compared');
    expect(card.agents.model).toBe('grapevine-local');
    expect(card.judge.model).toBe('judge');
    expect(card.interaction.maxTurns).toBe(20);
    expect(card.profiles.provenance).toMatchObject({
      repository: 'sotopia-lab/sotopia-space',
      licence: 'Apache-2.0',
    });
    expect(card.profiles.counts).toEqual({ agents: 40, environments: 90, relationships: 120, combos: 450 });
    expect(renderCardMarkdown(card)).toContain('| script | single-agent (one omniscient writer) |');
    expect(card.protocol).toMatchObject({
      name: 'zhou2024',
      options: {
        judgeModel: 'judge',
        judgeSame: false,
        rubric: 'basic',
        temperature: 1,
        writerTemperature: 0.7,
      },
    });
    expect(renderCardMarkdown(card)).toContain(
      '- protocol: zhou2024 (sotopia-lab/sotopia tag agent_vs_storyteller_v1',
    );
  });
});
