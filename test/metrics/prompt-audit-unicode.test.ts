// The prompt audit compares texts after normalizeText: a secret disguised in a prompt by
// invisible characters, homoglyphs from another script or fullwidth forms is still found,
// and a different text is still not.
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../src/metrics/normalize-text.ts';

const SECRET = 'The mayor sold the harbour land to Vance Holdings';

/** True when the audit would find `secret` in `prompt`. */
const found = (prompt: string, secret = SECRET) => normalizeText(prompt).includes(normalizeText(secret));

describe('normalizeText for the prompt audit', () => {
  it.each([
    ['a zero-width space inside a word', 'Rumour: the ma\u200byor sold the harbour land to Vance Holdings.'],
    ['a soft hyphen inside a word', 'Rumour: the mayor sold the har\u00adbour land to Vance Holdings.'],
    ['a word joiner and a byte-order mark', 'the mayor\u2060 sold the harbour\ufeff land to Vance Holdings'],
    [
      'Cyrillic homoglyphs (а, о, е)',
      'the m\u0430y\u043er s\u043eld th\u0435 harbour land to Vance Holdings',
    ],
    ['Greek homoglyphs (ο, Α)', 'the mayοr sold the harbour land to Vance Ηoldings'],
    ['fullwidth letters', 'the ｍａｙｏｒ sold the harbour land to Ｖａｎｃｅ Holdings'],
    ['other case and punctuation', 'THE MAYOR — sold the harbour-land to "Vance Holdings"!'],
  ])('finds the secret disguised by %s', (_what, prompt) => {
    expect(found(prompt)).toBe(true);
  });

  it('does not find a different text', () => {
    expect(found('the mayor sold the harbour boat to Vance Holdings')).toBe(false);
    expect(found('the mayor sold the harbour land to Vance Holding company')).toBe(false);
    expect(found('the mayor sold the harbour land to Vince Holdings')).toBe(false);
  });

  it('keeps plain text comparable as before: lowercase words, single spaces', () => {
    expect(normalizeText('  Hello,   WORLD!! 42 ')).toBe(normalizeText('hello world 42'));
    expect(normalizeText('')).toBe('');
  });
});
