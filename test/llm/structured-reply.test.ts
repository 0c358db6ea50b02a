import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BudgetExceededError, decideStructured, LlmCallError } from '../../src/llm/index.ts';
import { request, ScriptedPort } from './scripted-port.ts';

const Decision = z.object({ action: z.enum(['say', 'wait']), text: z.string().optional() });
const fallback = { action: 'wait' as const };

describe('decideStructured', () => {
  it('repairs and validates a reply, asking for JSON with the schema', async () => {
    const port = new ScriptedPort(["```json\n{'action': 'say', 'text': 'hello',}\n```"]);
    const result = await decideStructured(port, request(), Decision, { fallback });
    expect(result).toMatchObject({ value: { action: 'say', text: 'hello' }, fallback: false, errors: [] });
    const json = port.requests[0].params.json;
    expect(json?.name).toBe('reply');
    expect(json?.schema).toMatchObject({ type: 'object', required: ['action'] });
    expect(json?.schema).not.toHaveProperty('$schema');
  });

  it('keeps the json params of the request when given', async () => {
    const port = new ScriptedPort(['{"action": "wait"}']);
    const json = { name: 'mine', schema: {} };
    await decideStructured(port, request({ params: { model: 'm', json } }), Decision, { fallback });
    expect(port.requests[0].params.json).toBe(json);
  });

  it('re-asks with the bad reply and the problem, then succeeds', async () => {
    const port = new ScriptedPort(['{"action": "shout"}', '{"action": "say", "text": "ok"}']);
    const result = await decideStructured(port, request(), Decision, { fallback });
    expect(result.fallback).toBe(false);
    expect(result.value).toEqual({ action: 'say', text: 'ok' });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^call 1: does not match the schema: action: /);
    const reask = port.requests[1];
    expect(reask.purpose).toBe('decide:reask1');
    expect(reask.messages.slice(0, 2)).toEqual(request().messages);
    expect(reask.messages[2]).toEqual({ role: 'assistant', content: '{"action": "shout"}' });
    expect(reask.messages[3].role).toBe('user');
    expect(reask.messages[3].content).toContain('does not match the schema');
  });

  it('falls back after the retries and counts it, without throwing', async () => {
    const counters = { fallbacks: 0 };
    const port = new ScriptedPort(['nope', 'still nope', '{"action": 1}']);
    const result = await decideStructured(port, request(), Decision, { fallback, retries: 2, counters });
    expect(result).toEqual({
      value: fallback,
      fallback: true,
      errors: [
        'call 1: not valid JSON',
        'call 2: not valid JSON',
        expect.stringMatching(/^call 3: does not match the schema/),
      ],
    });
    expect(port.requests).toHaveLength(3);
    expect(counters.fallbacks).toBe(1);
  });

  it('falls back at once when the call fails for good', async () => {
    const counters = { fallbacks: 0 };
    const port = new ScriptedPort([
      new LlmCallError('http-5xx', 'LLM call failed (http-5xx): boom'),
      '{"action":"say"}',
    ]);
    const result = await decideStructured(port, request(), Decision, { fallback, counters });
    expect(result).toEqual({
      value: fallback,
      fallback: true,
      errors: ['call 1: LLM call failed (http-5xx): boom'],
    });
    expect(port.requests).toHaveLength(1);
    expect(counters.fallbacks).toBe(1);
  });

  it('lets budget and replay errors through', async () => {
    const port = new ScriptedPort([new BudgetExceededError('spent')]);
    await expect(decideStructured(port, request(), Decision, { fallback })).rejects.toThrow(
      BudgetExceededError,
    );
  });
});
