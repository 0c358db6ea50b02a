import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../../src/metrics/index.ts';
import { type Episode, resolveEpisode } from '../../../worlds/sotopia/episode.ts';
import { importSotopia } from '../../../worlds/sotopia/importer.ts';
import { MarkupError, parseMarkup, plainText, renderFor } from '../../../worlds/sotopia/markup.ts';
import { privateItemsOf } from '../../../worlds/sotopia/private-items.ts';
import {
  agentPrompt,
  playwrightPrompt,
  scriptPrompt,
} from '../../../worlds/sotopia/protocols/grapevine-v0-prompts.ts';
import {
  RELATIONSHIP_LEVELS,
  type RelationshipLevel,
  type SotopiaAgent,
} from '../../../worlds/sotopia/records.ts';
import { describeProfile, partnerView, seatView, writerView } from '../../../worlds/sotopia/views.ts';

const data = importSotopia();
/** The first scenario (codename divide_things, which 8 scenarios share). */
const FIRST = data.environments[0].env_id;

/** A partner whose every field is a unique marker, so a prompt shows exactly which fields it holds. */
const partner: SotopiaAgent = {
  agent_id: 'ID-MARKER',
  first_name: 'Zed',
  last_name: 'Quorum',
  age: 47,
  occupation: 'OCCUPATION-MARKER',
  gender: 'GENDER-MARKER',
  gender_pronoun: 'PRONOUN-MARKER',
  public_info: 'PUBLIC-INFO-MARKER',
  big_five: 'BIG-FIVE-MARKER',
  moral_values: ['MORAL-MARKER'],
  schwartz_personal_values: ['SCHWARTZ-MARKER'],
  personality_and_values: 'PERSONALITY-MARKER',
  decision_making_style: 'DECISION-MARKER',
  secret: 'SECRET-MARKER',
  mbti: 'MBTI-MARKER',
};

const MARKERS: Record<string, string> = {
  age: '47-year-old',
  occupation: 'OCCUPATION-MARKER',
  gender: 'GENDER-MARKER',
  gender_pronoun: 'PRONOUN-MARKER',
  public_info: 'PUBLIC-INFO-MARKER',
  big_five: 'BIG-FIVE-MARKER',
  moral_values: 'MORAL-MARKER',
  schwartz_personal_values: 'SCHWARTZ-MARKER',
  personality_and_values: 'PERSONALITY-MARKER',
  decision_making_style: 'DECISION-MARKER',
  mbti: 'MBTI-MARKER',
  secret: 'SECRET-MARKER',
  agent_id: 'ID-MARKER',
};

const NAME = ['first_name', 'last_name'];
const PUBLIC = [...NAME, 'age', 'gender', 'gender_pronoun', 'occupation', 'public_info'];
const CLOSE = [
  ...PUBLIC,
  'personality_and_values',
  'big_five',
  'moral_values',
  'schwartz_personal_values',
  'decision_making_style',
  'mbti',
];

const EXPECTED: [RelationshipLevel, string[]][] = [
  ['stranger', NAME],
  ['know_by_name', NAME],
  ['acquaintance', PUBLIC],
  ['friend', CLOSE],
  ['romantic_relationship', CLOSE],
  ['family_member', CLOSE],
];

function episodeWith(level: RelationshipLevel): Episode {
  const ep = resolveEpisode(data, FIRST, 0);
  const env = { ...ep.env, agent_goals: ['Win the GOAL0-MARKER game', 'Win the GOAL1-MARKER game'] };
  return {
    ...ep,
    env,
    relationship: level,
    agents: [ep.agents[0], partner],
    names: [ep.names[0], 'Zed Quorum'],
  };
}

describe('what an agent sees of its partner, by relationship level', () => {
  it('covers all six levels', () => {
    expect(EXPECTED.map(([l]) => l)).toEqual([...RELATIONSHIP_LEVELS]);
  });

  it.each(EXPECTED)('%s: exactly the expected fields, never the secret', (level, fields) => {
    const view = partnerView(partner, level);
    expect(Object.keys(view).sort()).toEqual([...fields].sort());
    const ep = episodeWith(level);
    const prompt = agentPrompt(seatView(ep, 0, 'agents'), [], 1, 20)
      .map((m) => m.content)
      .join('\n');
    expect(prompt).toContain('Zed Quorum');
    for (const [field, marker] of Object.entries(MARKERS)) {
      if (fields.includes(field)) expect(prompt, field).toContain(marker);
      else expect(prompt, field).not.toContain(marker);
    }
    expect(prompt).not.toContain('GOAL1-MARKER');
    expect(prompt).toContain('GOAL0-MARKER');
  });

  it('mindreaders also see the partner goal and secret; the partner prompt never holds the own goal in agents mode', () => {
    const ep = episodeWith('stranger');
    const mind = agentPrompt(seatView(ep, 0, 'mindreaders'), [], 1, 20)
      .map((m) => m.content)
      .join('\n');
    expect(mind).toContain('GOAL1-MARKER');
    expect(mind).toContain('SECRET-MARKER');
    expect(mind).not.toContain('PUBLIC-INFO-MARKER');
    const other = agentPrompt(seatView(ep, 1, 'agents'), [], 2, 20)
      .map((m) => m.content)
      .join('\n');
    expect(other).toContain('GOAL1-MARKER');
    expect(other).toContain('SECRET-MARKER');
    expect(other).not.toContain('GOAL0-MARKER');
    expect(other).not.toContain(ep.agents[0].secret);
  });

  it('describes a profile with only the fields present', () => {
    expect(describeProfile({ first_name: 'Zed', last_name: 'Quorum' })).toBe('Zed Quorum.');
    expect(describeProfile(partner)).not.toContain('SECRET-MARKER');
  });
});

describe('visibility markup', () => {
  const text =
    'Meet <p viewer=\'agent_0\'>A0-ONLY</p> and <p viewer="environment">ENV-ONLY</p> (<extra_info>EXTRA <strategy_hint>HINT</strategy_hint></extra_info>) <clarification_hint>CLAR</clarification_hint>';

  it('parses into segments with viewer and tags', () => {
    const segments = parseMarkup(text);
    expect(segments.find((s) => s.text === 'A0-ONLY')).toMatchObject({ viewer: 'agent_0', tags: [] });
    expect(segments.find((s) => s.text === 'ENV-ONLY')).toMatchObject({ viewer: 'environment', tags: [] });
    expect(segments.find((s) => s.text === 'HINT')).toMatchObject({
      viewer: null,
      tags: ['extra_info', 'strategy_hint'],
    });
    expect(plainText(segments)).toBe('Meet and');
  });

  it.each([
    [['agent_0'], ['A0-ONLY', 'EXTRA', 'HINT', 'CLAR'], ['ENV-ONLY']],
    [['agent_1'], ['EXTRA', 'HINT', 'CLAR'], ['A0-ONLY', 'ENV-ONLY']],
    [['environment'], ['A0-ONLY', 'ENV-ONLY', 'EXTRA', 'HINT', 'CLAR'], []],
  ] as const)('rendered for %j', (viewers, shown, hidden) => {
    const r = renderFor(text, viewers);
    for (const s of shown) expect(r).toContain(s);
    for (const h of hidden) expect(r).not.toContain(h);
    expect(r).not.toMatch(/[<>]/);
  });

  it.each([
    ['<b>bold</b>', /unknown tag/],
    ['<extra_info>open', /never closed/],
    ['<extra_info>x</strategy_hint>', /closes <extra_info>/],
    ["<p viewer='judge'>x</p>", /unknown viewer/],
  ])('rejects %j', (bad, message) => {
    expect(() => parseMarkup(bad)).toThrow(MarkupError);
    expect(() => parseMarkup(bad)).toThrow(message);
  });

  it('agents never see environment-only text; the writer neither; the judge does', () => {
    const ep = resolveEpisode(data, 'mutual_friend_00001', 0);
    const secretFriend = 'They have 1 common friends: Harvey.';
    expect(ep.env.scenario).toContain(secretFriend);
    for (const seat of [0, 1]) {
      const p = agentPrompt(seatView(ep, seat, 'mindreaders'), [], 1, 20);
      expect(p.map((m) => m.content).join('\n')).not.toContain('common friends');
    }
    const w = writerView(ep);
    expect(
      scriptPrompt(w, 20)
        .map((m) => m.content)
        .join('\n'),
    ).not.toContain('common friends');
    expect(
      playwrightPrompt(w, [], 1, 0, 20)
        .map((m) => m.content)
        .join('\n'),
    ).not.toContain('common friends');
    expect(renderFor(ep.env.scenario, ['environment'])).toContain(secretFriend);
  });

  it('own goal keeps its hints (rendered without tags)', () => {
    const ep = resolveEpisode(data, FIRST, 0);
    const v = seatView(ep, 0, 'agents');
    expect(v.goal).toContain('Extra information: Books give you 5 points each');
    expect(v.goal).not.toContain('<');
  });
});

describe('private items declared for the audit', () => {
  it('agents: goals, hints and secrets, visible to nobody else unless they have the same text', () => {
    const ep = resolveEpisode(data, 'mutual_friend_00001', 0);
    const items = privateItemsOf(ep, 'agents');
    const kinds = items.map((i) => `${i.owner}:${i.kind}`);
    for (const k of ['0:goal', '1:goal', '0:secret', '1:secret', '-1:environment'])
      expect(kinds).toContain(k);
    expect(items.find((i) => i.kind === 'environment')?.text).toBe('They have 1 common friends: Harvey.');
    for (const i of items) {
      if (!i.visibleTo) continue;
      for (const seat of i.visibleTo) {
        const own = seatView(ep, seat, 'agents');
        const text = normalizeText([own.scenario, own.goal, own.self.secret].join(' '));
        expect(text).toContain(normalizeText(i.text));
      }
    }
  });

  it('identical goals (prison_dilemma) are not private from the other', () => {
    const ep = resolveEpisode(data, 'prison_dilemma', 0);
    const goal0 = privateItemsOf(ep, 'agents').find((i) => i.owner === 0 && i.kind === 'goal')!;
    expect(goal0.visibleTo).toEqual([1]);
  });

  it('mindreaders: the partner may see goal, hints and secret; script/playwright: the writer (seat 2) all but environment text', () => {
    const ep = resolveEpisode(data, 'mutual_friend_00001', 0);
    for (const i of privateItemsOf(ep, 'mindreaders'))
      if (i.owner >= 0) expect(i.visibleTo).toContain(1 - i.owner);
    for (const mode of ['script', 'playwright'] as const)
      for (const i of privateItemsOf(ep, mode)) {
        if (i.owner >= 0) expect(i.visibleTo).toContain(2);
        else expect(i.visibleTo ?? []).not.toContain(2);
      }
  });
});
