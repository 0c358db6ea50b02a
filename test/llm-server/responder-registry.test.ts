// The local server's one list of responders: contributed ones asked first in order, the
// generic ones last; roles a responder declares for its field names; a malformed responder
// refused before the server listens; a failing one named in the 500 it causes.
import { describe, expect, it } from 'vitest';
import {
  chatRequestSchema,
  type LlmResponder,
  ResponderRegistry,
  respond,
  startLocalLlmServer,
} from '../../src/llm-server/index.ts';
import { conventionBody, jsonOf, postChat } from './helpers.ts';

const request = (body: Record<string, unknown>) => chatRequestSchema.parse(body);
const fixed = (name: string, text: string, when = () => true): LlmResponder => ({
  name,
  respond: (kit) => (when() ? kit.finish(text) : undefined),
});

/** A reply schema whose field names are not in the generic vocabulary. */
const schema = {
  type: 'object',
  properties: { action: { type: 'string', enum: ['speak', 'none'] }, utteranceX: { type: 'string' } },
  required: ['action', 'utteranceX'],
};
const schemaBody = (seed: number) =>
  conventionBody({ seed, response_format: { type: 'json_schema', json_schema: { name: 'r', schema } } });

describe('ResponderRegistry', () => {
  it('asks the contributed responders in order, then the generic ones', () => {
    const body = request(conventionBody());
    expect(respond(body, [fixed('a', 'from a'), fixed('b', 'from b')]).content).toBe('from a');
    expect(respond(body, [fixed('a', 'from a', () => false), fixed('b', 'from b')]).content).toBe('from b');
    expect(respond(body, [fixed('a', 'x', () => false)])).toEqual(respond(body));
    expect(respond(body).content).toMatch(/^Action: /);
  });

  it('fills a field by the role a responder declares for its name, and only then', () => {
    const roles: LlmResponder = {
      name: 'roles',
      fieldRoles: { utterance_x: 'text' },
      respond: () => undefined,
    };
    let differs = 0;
    for (let seed = 0; seed < 20; seed++) {
      const plain = JSON.parse(respond(request(schemaBody(seed))).content ?? '');
      const declared = JSON.parse(respond(request(schemaBody(seed)), [roles]).content ?? '');
      expect(declared.action).toBe(plain.action);
      // a line said is empty for a passive action; an undeclared field gets a reason instead
      if (declared.action === 'none') expect(declared.utteranceX).toBe('');
      else expect(declared.utteranceX).toContain('Ana');
      if (declared.utteranceX !== plain.utteranceX) differs++;
    }
    expect(differs).toBeGreaterThan(0);
  });

  it('refuses a responder without respond, two of one name, and an unknown role (ConfigError)', () => {
    expect(() => new ResponderRegistry([{ name: 'x' } as LlmResponder])).toThrow(
      expect.objectContaining({
        code: 'E_CONFIG',
        message: 'not a local LLM responder: "x" (no respond function)',
      }),
    );
    expect(() => new ResponderRegistry([fixed('x', ''), fixed('x', '')])).toThrow(
      /two local LLM responders are named "x"/,
    );
    expect(() => new ResponderRegistry([fixed('text', '')])).toThrow(/named "text"/);
    const bad = { ...fixed('r', ''), fieldRoles: { line: 'speech' } } as unknown as LlmResponder;
    expect(() => new ResponderRegistry([bad])).toThrow(/field role "speech" of "line" is not a role/);
  });

  it('a responder that throws gets a 500 naming it; the server goes on', async () => {
    const boom: LlmResponder = {
      name: 'boom',
      respond: (kit) => {
        if (kit.facts.lastUserText === 'explode') throw new Error('kaput');
        return undefined;
      },
    };
    const server = await startLocalLlmServer({ responders: [boom] });
    try {
      const res = await postChat(server, { model: 'm', messages: [{ role: 'user', content: 'explode' }] });
      expect(res.status).toBe(500);
      expect((await jsonOf(res)).error.message).toBe(
        'The local LLM server failed: responder "boom" failed: kaput',
      );
      const ok = await postChat(server, conventionBody());
      expect(ok.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
