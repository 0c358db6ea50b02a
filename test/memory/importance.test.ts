import { describe, expect, it } from 'vitest';
import { clampImportance, createImportanceHeuristic, estimateImportance } from '../../src/memory/index.ts';

const obs = (text: string) => estimateImportance({ kind: 'observation', text });

describe('estimateImportance', () => {
  it('starts from a base by kind', () => {
    const text = 'the day went by';
    const [o, a, r] = (['observation', 'action', 'reflection'] as const).map((kind) =>
      estimateImportance({ kind, text }),
    );
    expect([o, a, r]).toEqual([2, 3, 5]);
  });

  it('adds for punctuation, named things, shouting and keywords', () => {
    expect(obs('the bread is fresh')).toBe(2);
    expect(obs('the bread is fresh!')).toBe(3);
    expect(obs('is the bread fresh?')).toBe(3);
    expect(obs('the baker met Alice and Bob and Carol')).toBe(4); // named things capped at +2
    expect(obs('see item7 now')).toBe(3);
    expect(obs('come NOW')).toBe(3);
    expect(obs('this is a secret')).toBe(5);
    expect(obs("Don't tell anyone")).toBe(5);
    expect(obs('never tell them')).toBe(5);
    expect(obs('urgent news')).toBe(4);
  });

  it('rates secrets and urgency above mundane chatter, and clamps to 10', () => {
    expect(obs('URGENT! Never tell Bob the secret: Alice lied about the money?')).toBe(10);
    expect(obs('nice weather')).toBeLessThan(obs('urgent: the bridge is dangerous'));
    expect(estimateImportance({ kind: 'observation', text: '' })).toBe(2);
  });

  it('is a pure function of its input', () => {
    const input = { kind: 'action' as const, text: 'I told Eve the secret!' };
    expect(estimateImportance(input)).toBe(estimateImportance({ ...input }));
  });

  it('can be rebuilt with other bases and keywords', () => {
    const rate = createImportanceHeuristic({
      base: { observation: 1 },
      keywords: { treasure: 6 },
      maxKeywordBonus: 8,
    });
    expect(rate({ kind: 'observation', text: 'a treasure map' })).toBe(7);
    expect(rate({ kind: 'observation', text: 'a secret' })).toBe(1);
    expect(rate({ kind: 'reflection', text: 'x' })).toBe(5);
  });
});

describe('clampImportance', () => {
  it('rounds into 1..10', () => {
    expect([-3, 0, 1.4, 5.5, 10, 99, Number.NaN, Number.POSITIVE_INFINITY].map(clampImportance)).toEqual([
      1, 1, 1, 6, 10, 10, 1, 1,
    ]);
  });
});
