import { describe, expect, it } from 'vitest';
import { chatRequestSchema, readPromptFacts, respond } from '../../src/llm-server/index.ts';
import { conventionBody, SYSTEM_ANA, userTurn, validatorFor } from './helpers.ts';

const reply = (body: Record<string, unknown>) => respond(chatRequestSchema.parse(body));
const KNOWN = [
  'The mill will close next month.',
  'Bob owes Carl ten coins.',
  'The mayor was seen at the river at midnight.',
];

const actionSchema = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['speak', 'dm', 'none'] },
    to: { type: ['string', 'null'] },
    text: { type: 'string' },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['action', 'to', 'text', 'confidence'],
  additionalProperties: false,
};

const score = (min: number, max: number) => ({
  type: 'object',
  properties: { reasoning: { type: 'string' }, score: { type: 'integer', minimum: min, maximum: max } },
  required: ['reasoning', 'score'],
  additionalProperties: false,
});

const judgeSchema = {
  type: 'object',
  $defs: {
    tuple: {
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'integer', minimum: -10, maximum: 0 }],
      minItems: 2,
      maxItems: 2,
    },
  },
  properties: {
    agent_1_evaluation: {
      type: 'object',
      properties: {
        believability: score(0, 10),
        relationship: score(-5, 5),
        secret: { $ref: '#/$defs/tuple' },
        goal: score(0, 10),
      },
      required: ['believability', 'relationship', 'secret', 'goal'],
      additionalProperties: false,
    },
    tags: {
      type: 'array',
      items: { type: 'string', enum: ['calm', 'tense', 'friendly'] },
      minItems: 2,
      uniqueItems: true,
    },
    flagged: { type: 'boolean' },
    summary: { type: 'string', minLength: 5, maxLength: 200 },
  },
  required: ['agent_1_evaluation', 'tags', 'flagged', 'summary'],
  additionalProperties: false,
};

function jsonSchemaBody(schema: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return conventionBody({
    response_format: { type: 'json_schema', json_schema: { name: 'reply', schema } },
    ...extra,
  });
}

describe('readPromptFacts', () => {
  it('reads the prompt convention', () => {
    const facts = readPromptFacts(chatRequestSchema.parse(conventionBody()).messages);
    expect(facts).toMatchObject({
      name: 'Ana',
      persona: 'a cautious baker who loves gossip',
      goal: 'Find out who took the money from the mill.',
      known: KNOWN,
      allowedActions: ['speak', 'dm', 'none'],
      contacts: ['Bob', 'Carl'],
    });
    expect(facts.recent).toEqual([
      { speaker: 'Bob', text: 'Did anyone see the cash box?' },
      { speaker: 'Ana', text: 'Not me.' },
      { speaker: 'Carl', text: 'I was at the inn all night.' },
    ]);
  });

  it('tolerates case, bracketed prefixes and annotated actions', () => {
    const messages = chatRequestSchema.parse({
      model: 'm',
      messages: [
        {
          role: 'user',
          content:
            'name: Zed\nRECENT MESSAGES:\n- [t=2] Yuri (dm): psst\nallowed actions: `post` (to all) | whisper or wait',
        },
      ],
    }).messages;
    const facts = readPromptFacts(messages);
    expect(facts.name).toBe('Zed');
    expect(facts.recent).toEqual([{ speaker: 'Yuri', text: 'psst' }]);
    expect(facts.allowedActions).toEqual(['post', 'whisper', 'wait']);
  });
});

describe('respond', () => {
  it('is a pure function of the request', () => {
    expect(reply(conventionBody({ seed: 1 }))).toEqual(reply(conventionBody({ seed: 1 })));
    expect(reply(conventionBody({ seed: 1 })).content).not.toBe(reply(conventionBody({ seed: 2 })).content);
  });

  it('changes with the messages, and ignores the seed at temperature 0', () => {
    const a = reply(conventionBody()).content;
    const b = reply({
      ...conventionBody(),
      messages: [
        { role: 'system', content: SYSTEM_ANA },
        { role: 'user', content: userTurn('Bob', 'Hello?') },
      ],
    }).content;
    expect(a).not.toBe(b);
    expect(reply(conventionBody({ temperature: 0, seed: 1 })).content).toBe(
      reply(conventionBody({ temperature: 0, seed: 2 })).content,
    );
  });

  it('stays in character: names itself, answers the latest speaker, picks an allowed action', () => {
    for (let seed = 0; seed < 30; seed++) {
      const text = reply(conventionBody({ seed })).content ?? '';
      const action = /^Action: (.*)$/m.exec(text)?.[1];
      expect(['speak', 'dm', 'none']).toContain(action);
      if (action === 'none') continue;
      expect(text).toMatch(/Text: .*Carl.*Ana/);
      expect(text).toContain('find out who took the money from the mill');
      if (action === 'dm') expect(text).toContain('To: Carl');
    }
  });

  it('passes on You know items verbatim in some replies but not all', () => {
    const shared = new Set<string>();
    let without = 0;
    for (let seed = 0; seed < 40; seed++) {
      const text = reply(conventionBody({ seed })).content ?? '';
      const item = KNOWN.find((k) => text.includes(k));
      if (item) shared.add(item);
      else without++;
    }
    expect(shared.size).toBe(KNOWN.length);
    expect(without).toBeGreaterThan(0);
  });

  it('replies with the line alone when the prompt lists no actions', () => {
    const text = reply({
      model: 'm',
      messages: [
        { role: 'system', content: 'Name: Bo\nGoal: stay calm' },
        { role: 'user', content: 'Hi' },
      ],
    }).content;
    expect(text).not.toContain('Action:');
    expect(text).toContain('Bo');
  });

  it('fills an agent action schema sensibly', () => {
    const validate = validatorFor(actionSchema);
    const seen = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const r = reply(jsonSchemaBody(actionSchema, { seed }));
      const value = validate.parse(JSON.parse(r.content ?? '')) as {
        action: string;
        to: string | null;
        text: string;
      };
      seen.add(value.action);
      if (value.action === 'dm') expect(value.to).toBe('Carl');
      if (value.action === 'none') expect(value.text).toBe('');
      else expect(value.text).toContain('Ana');
    }
    expect(seen).toEqual(new Set(['speak', 'dm', 'none']));
  });

  it('fills a judge schema with mid-range scores and reasons', () => {
    const r = reply(jsonSchemaBody(judgeSchema));
    const value = JSON.parse(r.content ?? '');
    expect(validatorFor(judgeSchema).safeParse(value).success).toBe(true);
    const evaluation = value.agent_1_evaluation;
    expect(evaluation.believability.score).toBeGreaterThanOrEqual(3);
    expect(evaluation.believability.score).toBeLessThanOrEqual(7);
    expect(evaluation.relationship.score).toBeGreaterThanOrEqual(-2);
    expect(evaluation.relationship.score).toBeLessThanOrEqual(2);
    expect(evaluation.believability.reasoning).toMatch(/^Believability: /);
    expect(evaluation.secret[0]).toMatch(/^Secret: /);
    expect(new Set(value.tags).size).toBe(2);
  });

  it('returns a JSON object in json_object mode', () => {
    const r = reply(conventionBody({ response_format: { type: 'json_object' }, seed: 3 }));
    expect(r.json).toBe(true);
    expect(Object.keys(JSON.parse(r.content ?? ''))).toEqual(expect.arrayContaining(['action', 'text']));
  });

  it('answers a forced tool with a tool call', () => {
    const tools = [{ type: 'function', function: { name: 'act', parameters: actionSchema } }];
    const r = reply(conventionBody({ tools, tool_choice: { type: 'function', function: { name: 'act' } } }));
    expect(r.content).toBeNull();
    expect(r.finishReason).toBe('tool_calls');
    expect(r.toolCalls[0].name).toBe('act');
    expect(validatorFor(actionSchema).safeParse(JSON.parse(r.toolCalls[0].arguments)).success).toBe(true);
  });

  it('honours max_tokens and stop', () => {
    const r = reply(conventionBody({ max_tokens: 3 }));
    expect(r.finishReason).toBe('length');
    expect(r.completionTokens).toBe(3);
    const stopped = reply(conventionBody({ stop: ['\n'] }));
    expect(stopped.content).toMatch(/^Action: \w+$/);
  });
});
