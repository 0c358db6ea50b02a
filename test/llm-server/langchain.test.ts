import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { ChatOpenAI, type ChatOpenAIFields } from '@langchain/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type LocalLlmServer, startLocalLlmServer } from '../../src/llm-server/index.ts';
import { SYSTEM_ANA, userTurn } from './helpers.ts';

let server: LocalLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const messages = [new SystemMessage(SYSTEM_ANA), new HumanMessage(userTurn())];

function chat(s: LocalLlmServer, extra: ChatOpenAIFields = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: 'grapevine-local',
    apiKey: 'sk-test',
    configuration: { baseURL: s.url },
    maxRetries: 0,
    ...extra,
  });
}

describe('local LLM server with LangChain ChatOpenAI', () => {
  it('answers invoke() with content and token usage', async () => {
    server = await startLocalLlmServer();
    const reply = await chat(server).invoke(messages);
    expect(typeof reply.content).toBe('string');
    expect(reply.content).toContain('Ana');
    expect(reply.usage_metadata?.input_tokens).toBeGreaterThan(0);
    expect(reply.usage_metadata?.output_tokens).toBeGreaterThan(0);
    expect(reply.response_metadata.model_name).toBe('grapevine-local');
    expect((await chat(server).invoke(messages)).content).toBe(reply.content);
  });

  it('streams the same text as invoke()', async () => {
    server = await startLocalLlmServer();
    const model = chat(server, { streamUsage: true });
    const whole = await model.invoke(messages);
    let text = '';
    let outputTokens = 0;
    for await (const chunk of await model.stream(messages)) {
      text += chunk.content;
      outputTokens += chunk.usage_metadata?.output_tokens ?? 0;
    }
    expect(text).toBe(whole.content);
    expect(outputTokens).toBe(whole.usage_metadata?.output_tokens);
  });

  it('gives structured output through withStructuredOutput (json_schema and function calling)', async () => {
    server = await startLocalLlmServer();
    const schema = z.object({
      action: z.enum(['speak', 'dm', 'none']),
      to: z.string().nullable(),
      text: z.string(),
    });
    for (const method of ['jsonSchema', 'functionCalling'] as const) {
      const value = await chat(server).withStructuredOutput(schema, { name: 'act', method }).invoke(messages);
      expect(schema.safeParse(value).success).toBe(true);
    }
  });

  it('surfaces injected faults as client errors', async () => {
    server = await startLocalLlmServer({ faultRate: 1, faultKinds: ['429'], retryAfterSeconds: 0.01 });
    await expect(chat(server).invoke(messages)).rejects.toMatchObject({ status: 429 });
  });

  it('gives up on a timeout fault through the client timeout', async () => {
    server = await startLocalLlmServer({ faultRate: 1, faultKinds: ['timeout'] });
    await expect(chat(server, { timeout: 200 }).invoke(messages)).rejects.toThrow(/timed out|timeout/i);
  });
});
