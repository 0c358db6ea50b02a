import { describe, expect, it } from 'vitest';
import { StringCodes } from '../../src/bus/string-codes.ts';

describe('StringCodes', () => {
  it('gives each string one code, in order of first use, whatever was coded just before', () => {
    const codes = new StringCodes();
    const seq = ['', 'tell', 'fact', 'tell', 'rumor', 'ack', '', 'fact', 'ack', 'tell', 'x', 'rumor', ''];
    const first = new Map<string, number>();
    for (const s of seq) {
      const c = codes.code(s);
      if (!first.has(s)) first.set(s, first.size);
      expect(c).toBe(first.get(s));
      expect(codes.string(c)).toBe(s);
    }
    // a string built at run time (not the same object) has the code of its equal
    expect(codes.code(['te', 'll'].join(''))).toBe(first.get('tell'));
  });
});
