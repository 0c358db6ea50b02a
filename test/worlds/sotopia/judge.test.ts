import { describe, expect, it } from 'vitest';
import { DIMENSION_NAMES, DIMENSIONS } from '../../../worlds/sotopia/dimensions.ts';
import { resolveEpisode } from '../../../worlds/sotopia/episode.ts';
import { importSotopia } from '../../../worlds/sotopia/importer.ts';
import { runJudge } from '../../../worlds/sotopia/judge.ts';
import { judgeReplySchema, parseJudgeReply, toScores } from '../../../worlds/sotopia/judge-reply.ts';
import { scriptReplySchema, scriptTranscript } from '../../../worlds/sotopia/protocols/grapevine-v0.ts';
import { judgePrompt } from '../../../worlds/sotopia/protocols/grapevine-v0-prompts.ts';
import { endReason, type TurnRecord } from '../../../worlds/sotopia/transcript.ts';
import { environmentView } from '../../../worlds/sotopia/views.ts';
import { ScriptedPort } from '../../llm/scripted-port.ts';

type Reply = Record<string, Record<string, { reasoning: unknown; score: unknown }>>;

function validReply(
  score: (d: string) => number = (d) => DIMENSIONS[d as keyof typeof DIMENSIONS].max,
): Reply {
  const one = () =>
    Object.fromEntries(DIMENSION_NAMES.map((d) => [d, { reasoning: `about ${d}`, score: score(d) }]));
  return { agent0: one(), agent1: one() };
}

function withScore(dimension: string, value: unknown): string {
  const r = validReply();
  r.agent1[dimension].score = value;
  return JSON.stringify(r);
}

describe('judge reply parsing', () => {
  it('accepts integer scores within every range', () => {
    const r = parseJudgeReply(
      JSON.stringify(validReply((d) => DIMENSIONS[d as keyof typeof DIMENSIONS].min)),
    );
    expect(r.ok).toBe(true);
  });

  it.each([
    ['believability', 11],
    ['believability', -1],
    ['relationship', 6],
    ['relationship', -6],
    ['knowledge', 12],
    ['secret', 1],
    ['secret', -11],
    ['social_rules', 3],
    ['financial_and_material_benefits', -9],
    ['goal', 10.5],
    ['goal', '7'],
    ['goal', null],
  ])('rejects %s = %j', (dimension, value) => {
    const r = parseJudgeReply(withScore(dimension, value));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(`agent1.${dimension}.score`);
  });

  it.each([
    ['not JSON at all', 'The agents did fine.'],
    ['cut JSON', JSON.stringify(validReply()).slice(0, 60)],
    [
      'a missing dimension',
      JSON.stringify({ ...validReply(), agent0: { goal: { reasoning: 'x', score: 3 } } }),
    ],
    ['a missing agent', JSON.stringify({ agent0: validReply().agent0 })],
    ['no reasoning', withScore('goal', 5).replace('"about goal"', '""')],
    ['a bare score', JSON.stringify({ ...validReply(), agent1: { ...validReply().agent1, goal: 7 } })],
  ])('rejects %s', (_what, text) => {
    expect(parseJudgeReply(text).ok).toBe(false);
  });

  it('overall is the unweighted mean of the seven scores', () => {
    const r = parseJudgeReply(JSON.stringify(validReply()));
    if (!r.ok) throw new Error(r.error);
    const s = toScores(r.value);
    expect(s.agent0.overall).toBeCloseTo((10 + 5 + 10 + 0 + 0 + 5 + 10) / 7, 12);
    expect(s.agent1.reasoning.goal).toBe('about goal');
    expect(Object.keys(s.agent0).sort()).toEqual([...DIMENSION_NAMES, 'overall', 'reasoning'].sort());
  });
});

describe('the judge call', () => {
  const data = importSotopia();
  const ep = resolveEpisode(data, data.environments[0].env_id, 0);
  const call = (port: ScriptedPort) =>
    runJudge({
      llm: port,
      tick: 9,
      call: {
        messages: judgePrompt(environmentView(ep), [], 'leave'),
        params: { model: 'judge-model', temperature: 0 },
        reading: { schema: judgeReplySchema, name: 'sotopia_eval' },
        attempts: 1,
      },
      repairPrompt: () => [],
      repairModel: '',
    });

  it('re-asks after an out-of-range reply and uses the valid one', async () => {
    const port = new ScriptedPort([withScore('secret', 4), JSON.stringify(validReply())]);
    const outcome = await call(port);
    expect(outcome.fallback).toBe(false);
    expect(outcome.scores?.agent0.goal).toBe(10);
    expect(outcome.errors).toHaveLength(1);
    expect(port.requests.map((r) => [r.caller, r.purpose, r.params.model])).toEqual([
      ['judge', 'judge', 'judge-model'],
      ['judge', 'judge:reask1', 'judge-model'],
    ]);
  });

  it('falls back (recorded, scores null) after three bad replies', async () => {
    const outcome = await call(new ScriptedPort(['no idea']));
    expect(outcome).toMatchObject({ fallback: true, scores: null, model: 'judge-model' });
    expect(outcome.errors).toHaveLength(3);
  });
});

describe('episode end and scripts', () => {
  const t = (action: TurnRecord['action'], k: number): TurnRecord => ({
    turn: k,
    speaker: (k - 1) % 2,
    name: `n${(k - 1) % 2}`,
    action,
    text: action === 'none' ? '' : 'x',
    fallback: false,
  });

  it('ends on leave, after more than maxIdle idle turns, at maxTurns', () => {
    expect(endReason([t('speak', 1), t('leave', 2)], 20, 2)).toBe('leave');
    expect(endReason([t('none', 1), t('none', 2)], 20, 2)).toBeNull();
    expect(endReason([t('none', 1), t('none', 2), t('none', 3)], 20, 2)).toBe('idle');
    expect(endReason([t('speak', 1), t('none', 2)], 2, 2)).toBe('max-turns');
  });

  it('a script becomes turns, cut where an episode would end', () => {
    const names = ['Ann Lee', 'Bo Kim'] as const;
    const schema = scriptReplySchema(names, 20);
    const reply = schema.parse({
      turns: [
        { speaker: 'Ann Lee', action: 'speak', argument: ' Hi Bo. ' },
        { speaker: 'Bo Kim', action: 'non-verbal communication', argument: 'waves' },
        { speaker: 'Ann Lee', action: 'leave', argument: '' },
        { speaker: 'Bo Kim', action: 'speak', argument: 'never said' },
      ],
    });
    const lines = reply.turns.map((x) => ({ name: x.speaker, action: x.action, argument: x.argument }));
    const { transcript, reason } = scriptTranscript(names, lines, 20, 2);
    expect(reason).toBe('leave');
    expect(transcript.map((x) => [x.turn, x.speaker, x.action, x.text])).toEqual([
      [1, 0, 'speak', 'Hi Bo.'],
      [2, 1, 'non-verbal communication', 'waves'],
      [3, 0, 'leave', ''],
    ]);
    expect(schema.safeParse({ turns: [{ speaker: 'Someone', action: 'speak', argument: '' }] }).success).toBe(
      false,
    );
  });
});
