import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/llm-server/chat-request.ts';
import { RequestKit } from '../../../src/llm-server/request-kit.ts';
import { wilson } from '../../../src/stats/index.ts';
import type { SurveyItem } from '../../../worlds/survey/items.ts';
import { buildQuestion, type Question } from '../../../worlds/survey/prompt.ts';
import { SyntheticRespondents } from '../../../worlds/survey/synthetic-respondents.ts';
import { syntheticTruthSchema } from '../../../worlds/survey/synthetic-truth.ts';

// The synthetic responder called directly (the HTTP path is tested in
// test/worlds/survey/synthetic.test.ts): each planted effect shows in its answers.
const CHOICE: SurveyItem = {
  id: 'pick',
  kind: 'choice',
  text: 'Pick one.',
  options: ['a', 'b', 'c', 'd'].map((id) => ({ id, label: id.toUpperCase() })),
};
const LIKERT: SurveyItem = {
  id: 'scale',
  kind: 'likert',
  text: 'How much?',
  options: ['1', '2', '3', '4', '5'].map((id) => ({ id, label: `level ${id}` })),
};

function request(q: Partial<Question> & { respondent: number; item: SurveyItem }): ChatRequest {
  const full: Question = {
    persona: { attributes: { gender: 'male' } },
    order: q.item.options.map((o) => o.id),
    elicitation: 'sample',
    phase: 'initial',
    ...q,
  };
  return { model: 'grapevine-local', messages: buildQuestion(full), temperature: 1, seed: 1 } as ChatRequest;
}

const reply = (s: SyntheticRespondents, r: ChatRequest) => JSON.parse(s.respond(new RequestKit(r))!.content!);
const N = 800;

describe('synthetic respondents', () => {
  it('plants the order effect: the option shown first is taken with probability e + (1 - e)/k', () => {
    const s = new SyntheticRespondents(syntheticTruthSchema.parse({ orderEffect: 0.4 }));
    let first = 0;
    for (let i = 0; i < N; i++) {
      const order = [
        CHOICE.options[i % 4].id,
        ...CHOICE.options.filter((_, k) => k !== i % 4).map((o) => o.id),
      ];
      if (reply(s, request({ respondent: i, item: CHOICE, order })).answer === order[0]) first++;
    }
    const ci = wilson(first, N);
    expect(ci.lo).toBeLessThanOrEqual(0.55);
    expect(ci.hi).toBeGreaterThanOrEqual(0.55);
  });

  it('plants the group bias as a shift of the stated distribution', () => {
    const s = new SyntheticRespondents(
      syntheticTruthSchema.parse({
        bias: [{ attribute: 'gender', value: 'female', shift: 1 }],
        items: { scale: { answers: { '2': 0.5, '3': 0.5 } } },
      }),
    );
    const ask = (gender: string) =>
      reply(
        s,
        request({
          respondent: 1,
          item: LIKERT,
          elicitation: 'distribution',
          persona: { attributes: { gender } },
        }),
      ).distribution;
    expect(ask('male')).toEqual({ '1': 0, '2': 0.5, '3': 0.5, '4': 0, '5': 0 });
    expect(ask('female')).toEqual({ '1': 0, '2': 0, '3': 0.5, '4': 0.5, '5': 0 });
  });

  it('plants conformity in the discussion and the flip towards an asserted answer under pushback', () => {
    const s = new SyntheticRespondents(syntheticTruthSchema.parse({ conformity: 0.3, flip: 0.6 }));
    let adopted = 0;
    let flipped = 0;
    for (let i = 0; i < N; i++) {
      const neighbours = [1, 2, 3].map((respondent) => ({ respondent, answer: 'a' }));
      const d = reply(
        s,
        request({ respondent: i, item: CHOICE, phase: 'discussion', earlier: 'b', neighbours }),
      );
      if (d.answer === 'a') adopted++;
      else expect(d.answer).toBe('b');
      const pushback = { kind: 'opposite' as const, asserted: 'c' };
      const p = reply(s, request({ respondent: i, item: CHOICE, phase: 'pushback', earlier: 'b', pushback }));
      if (p.answer === 'c') flipped++;
      else expect(p.answer).toBe('b');
    }
    for (const [k, planted] of [
      [adopted, 0.3],
      [flipped, 0.6],
    ]) {
      const ci = wilson(k, N);
      expect(ci.lo).toBeLessThanOrEqual(planted);
      expect(ci.hi).toBeGreaterThanOrEqual(planted);
    }
  });

  it('leaves requests that are not survey questions to the ordinary responder', () => {
    const s = new SyntheticRespondents(syntheticTruthSchema.parse({}));
    const plain = { model: 'm', messages: [{ role: 'user', content: 'Hello' }] } as ChatRequest;
    expect(s.respond(new RequestKit(plain))).toBeUndefined();
  });
});
