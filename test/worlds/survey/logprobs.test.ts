import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/index.ts';
import { ChatOpenAIPort } from '../../../src/llm/index.ts';
import { startLocalLlmServer } from '../../../src/llm-server/index.ts';
import type { SurveyAnswer } from '../../../worlds/survey/answers.ts';
import { logprobShares } from '../../../worlds/survey/logprob-shares.ts';
import { expectOfflineReplay, type SyntheticSurveyRun, syntheticSurveyRun } from './synthetic-run.ts';

// elicitation=logprobs through real HTTP: the local server's synthetic respondents put the
// planted distribution into the answer token's top_logprobs, the port asks for and records
// them, and the answers read back from the log carry the planted distribution.
const AGENTS = 24;
const ORDER_EFFECT = 0.2;
const PLANTED: Record<string, Record<string, number>> = {
  transit: { car: 0.5, transit: 0.3, bike: 0.2, walk: 0 },
  trust: { '1': 0.1, '2': 0.2, '3': 0.4, '4': 0.2, '5': 0.1 },
};
let run: SyntheticSurveyRun;
let answers: SurveyAnswer[];

beforeAll(async () => {
  run = await syntheticSurveyRun(
    'logprobs',
    [
      '- {id: transit, kind: choice, text: How do you get to work?, options: [car=Car, transit=Transit, bike=Bike, walk=Walk]}',
      '- {id: trust, kind: likert, text: Most people can be trusted., options: [1=No, 2=Rather not, 3=Unsure, 4=Rather yes, 5=Yes]}',
    ],
    [
      `orderEffect: ${ORDER_EFFECT}`,
      'items:',
      ...Object.entries(PLANTED).map(([id, shares]) => `  ${id}: { answers: ${JSON.stringify(shares)} }`),
    ],
    [`agents=${AGENTS}`, 'elicitation=logprobs'],
  );
  answers = run.answers;
}, 180_000);

afterAll(async () => {
  await run?.close();
});

/** The planted distribution a respondent shown `order` answers from: shares, then the order effect. */
function planted(item: string, order: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, p] of Object.entries(PLANTED[item]))
    out[id] = (1 - ORDER_EFFECT) * p + (id === order[0] ? ORDER_EFFECT : 0);
  return out;
}

describe('elicitation=logprobs against the synthetic respondents', () => {
  it('every answer carries the planted distribution, read from the recorded token log-probabilities', () => {
    expect(answers).toHaveLength(AGENTS * 2);
    for (const a of answers) {
      expect(a.distribution, `${a.agent} ${a.item}`).toBeDefined();
      const want = planted(a.item, a.optionOrder!);
      for (const id of Object.keys(want)) expect(a.distribution![id]).toBeCloseTo(want[id], 5);
      // The sampled answer is an option the distribution gives weight to.
      expect(a.distribution![a.answer as string]).toBeGreaterThan(0);
    }
    // Not vacuous: the order effect makes distributions differ between respondents.
    const firsts = new Set(answers.filter((a) => a.item === 'transit').map((a) => a.optionOrder![0]));
    expect(firsts.size).toBeGreaterThan(1);
  });

  it('the run with logprobs replays offline byte for byte', async () => {
    await expectOfflineReplay(run);
  }, 60_000);
});

describe('logprobs through the OpenAI port', () => {
  const request = (logprobs?: number) => ({
    caller: '0',
    tick: 0,
    purpose: 'test',
    messages: [{ role: 'user' as const, content: 'Say something short.' }],
    params: { model: 'grapevine-local', seed: 1, ...(logprobs === undefined ? {} : { logprobs }) },
  });

  it('the local server returns token logprobs that spell the reply, only when asked', async () => {
    const local = await startLocalLlmServer({ port: 0 });
    try {
      const port = new ChatOpenAIPort({ baseURL: local.url, apiKey: 'local' });
      const reply = await port.complete(request(3));
      expect(reply.logprobs!.map((t) => t.token).join('')).toBe(reply.text);
      expect(reply.logprobs!.every((t) => t.logprob === 0 && t.top.length === 1)).toBe(true);
      expect((await port.complete(request())).logprobs).toBeUndefined();
    } finally {
      await local.close();
    }
  });

  it('an endpoint that returns none fails with a ConfigError naming it and the way out', async () => {
    const bare = await startLocalLlmServer({ port: 0, logprobs: false });
    try {
      const port = new ChatOpenAIPort({ baseURL: bare.url, apiKey: 'local' });
      const err = await port.complete(request(5)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).message).toContain(bare.url.replace(/\/$/, ''));
      expect((err as ConfigError).message).toContain('logprobs');
      expect((err as ConfigError).hint).toContain('elicitation=distribution');
    } finally {
      await bare.close();
    }
  });
});

describe('logprobShares', () => {
  const tok = (token: string, top: [string, number][] = []) => ({
    token,
    logprob: 0,
    top: top.map(([t, p]) => ({ token: t, logprob: Math.log(p) })),
  });

  it('reads a BPE-like split where the quote and the value share a token, and id prefixes', () => {
    const text = '{"answer": "agree"}';
    const tokens = [
      tok('{"'),
      tok('answer'),
      tok('":'),
      tok(' "agree', [
        [' "agree', 0.5],
        [' "dis', 0.3],
        [' "neutral', 0.1],
        ['agree', 0.05],
      ]),
      tok('"}'),
    ];
    const shares = logprobShares(['agree', 'disagree', 'neutral'], text, 'agree', tokens)!;
    expect(shares.agree).toBeCloseTo(0.5 / 0.9, 12);
    expect(shares.disagree).toBeCloseTo(0.3 / 0.9, 12);
    expect(shares.neutral).toBeCloseTo(0.1 / 0.9, 12);
  });

  it('gives nothing when the tokens do not spell the reply or no alternative names an option', () => {
    const text = '{"answer":"a"}';
    expect(logprobShares(['a', 'b'], text, 'a', [tok('{"answer":"x')])).toBeUndefined();
    expect(
      logprobShares(['a', 'b'], text, 'a', [tok('{"answer":"'), tok('a', [['zz', 0.9]]), tok('"}')]),
    ).toBeUndefined();
  });
});
