import { describe, expect, it } from 'vitest';
import { isSalvageableJson, parseJsonLenient } from '../../src/llm/index.ts';

const value = (text: string) => {
  const r = parseJsonLenient(text);
  if (!r.ok) throw new Error(`did not parse: ${text}`);
  return r.value;
};

describe('parseJsonLenient', () => {
  it('parses valid JSON untouched', () => {
    expect(parseJsonLenient('{"a":1}')).toEqual({ ok: true, value: { a: 1 }, repaired: false });
  });

  it('strips code fences and surrounding prose', () => {
    expect(value('Sure! Here it is:\n```json\n{"action": "say", "text": "hi"}\n```\nHope it helps.')).toEqual(
      {
        action: 'say',
        text: 'hi',
      },
    );
    expect(value('I will say {"action": "wait"} now')).toEqual({ action: 'wait' });
  });

  it('removes trailing commas but not commas inside strings', () => {
    expect(value('{"a": [1, 2, ], "b": "x, }",}')).toEqual({ a: [1, 2], b: 'x, }' });
  });

  it('converts single quotes and Python literals, keeping apostrophes in double-quoted strings', () => {
    expect(value("{'action': 'say', 'text': 'he said \"hi\"', 'ok': True, 'x': None}")).toEqual({
      action: 'say',
      text: 'he said "hi"',
      ok: true,
      x: null,
    });
    expect(value(`{"text": "it's fine", 'n': 1}`)).toEqual({ text: "it's fine", n: 1 });
  });

  it('turns a bare word into a string, never into an object-prototype value', () => {
    expect(value("{'a': constructor}")).toEqual({ a: 'constructor' });
  });

  it('repairs unquoted keys, comments and a missing inner closing bracket (jsonrepair)', () => {
    expect(value('{action: "say", // a comment\n "to": [1, 2}')).toEqual({ action: 'say', to: [1, 2] });
  });

  it('rejects what cannot be repaired, with a message that does not depend on the JS engine', () => {
    expect(parseJsonLenient('{"action": "say", "text": "hal')).toEqual({
      ok: false,
      error: 'not valid JSON',
    });
    expect(isSalvageableJson('no json here')).toBe(false);
    expect(isSalvageableJson('{"a": 1} and then {"b": 2}')).toBe(false);
    expect(isSalvageableJson('```\n{"a": 1,}\n```')).toBe(true);
  });
});
