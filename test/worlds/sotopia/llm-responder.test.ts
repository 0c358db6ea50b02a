// The Sotopia world's responder of the local LLM server: a free-text prompt naming two
// participants and asking for `Turn #` lines gets a script that Sotopia's own parser reads;
// other requests are left to the generic responders.
import { describe, expect, it } from 'vitest';
import { chatRequestSchema, respond } from '../../../src/llm-server/index.ts';
import { sotopiaScriptResponder } from '../../../worlds/sotopia/llm-responder.ts';
import { parseScript } from '../../../worlds/sotopia/protocols/script-parser.ts';

const NAMES = ['Oliver Thompson', 'Esmeralda Solis'] as const;
const PROMPT = [
  'Name: Oliver Thompson',
  `Participants: ${NAMES[0]} and ${NAMES[1]}`,
  'Write the conversation, one turn after another, as two lines: "Turn #n", then "<name> <action>".',
].join('\n');
const body = (extra: Record<string, unknown> = {}, seed = 1) =>
  chatRequestSchema.parse({ model: 'm', seed, messages: [{ role: 'user', content: PROMPT }], ...extra });

describe('sotopiaScriptResponder', () => {
  it('writes a script of 2 to 6 turns that parseScript reads, alternating from the first participant', () => {
    const lengths = new Set<number>();
    for (let seed = 0; seed < 30; seed++) {
      const text = respond(body({}, seed), [sotopiaScriptResponder]).content ?? '';
      const parsed = parseScript(text, NAMES);
      expect(parsed.ok, text).toBe(true);
      if (!parsed.ok) continue;
      lengths.add(parsed.lines.length);
      expect(parsed.lines.map((l) => l.name)).toEqual(parsed.lines.map((_, k) => NAMES[k % 2]));
    }
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(6);
  });

  it('leaves a JSON request, and a prompt without participants, to the generic responders', () => {
    const json = body({ response_format: { type: 'json_object' } });
    expect(respond(json, [sotopiaScriptResponder])).toEqual(respond(json));
    const other = chatRequestSchema.parse({
      model: 'm',
      messages: [{ role: 'user', content: 'Turn #1 please' }],
    });
    expect(respond(other, [sotopiaScriptResponder])).toEqual(respond(other));
    expect(respond(body(), []).content).not.toMatch(/^Turn #1/);
  });
});
