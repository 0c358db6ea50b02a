import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import {
  clampImportance,
  createImportanceHeuristic,
  DEFAULT_IMPORTANCE_KEYWORDS,
  estimateImportance,
  tokenize,
} from '../../src/memory/index.ts';

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

/** The heuristic as first written (regexes per word, one scan per phrase): the reference. */
function referenceHeuristic(
  keywords: Readonly<Record<string, number>> = DEFAULT_IMPORTANCE_KEYWORDS,
  maxKeywordBonus = 4,
): (kind: 'observation' | 'action' | 'reflection', text: string) => number {
  const all = { stopWords: new Set<string>(), stem: false };
  const base = { observation: 2, action: 3, reflection: 5 };
  const phrases = Object.entries(keywords)
    .map(([phrase, bonus]) => ({ tokens: tokenize(phrase, all), bonus }))
    .filter((p) => p.tokens.length > 0);
  const countNamed = (text: string): number => {
    const named = new Set<string>();
    for (const sentence of text.split(/[.!?\n]+/)) {
      const words = sentence.match(/[\p{L}\p{N}_-]+/gu) ?? [];
      words.forEach((w, i) => {
        const isId = /\p{L}/u.test(w) && /\p{N}/u.test(w);
        const isName = i > 0 && w.length > 1 && /^\p{Lu}\p{Ll}/u.test(w);
        if (isId || isName) named.add(w);
      });
    }
    return named.size;
  };
  const contains = (tokens: readonly string[], phrase: readonly string[]): boolean => {
    outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
      for (let j = 0; j < phrase.length; j++) if (tokens[i + j] !== phrase[j]) continue outer;
      return true;
    }
    return false;
  };
  return (kind, text) => {
    let score = base[kind];
    if (text.includes('!')) score += 1;
    if (text.includes('?')) score += 1;
    score += Math.min(2, countNamed(text));
    if (/(?<![\p{L}\p{N}])\p{Lu}{3,}(?![\p{L}\p{N}])/u.test(text)) score += 1;
    const tokens = tokenize(text, all);
    let bonus = 0;
    for (const p of phrases) if (contains(tokens, p.tokens)) bonus += p.bonus;
    return clampImportance(score + Math.min(maxKeywordBonus, bonus));
  };
}

const PIECES = [
  'the',
  'bread',
  'Alice',
  'Bob',
  'ÉCOLE',
  'Zoë',
  'Ōsaka',
  'ǅungla',
  'İstanbul',
  'Über',
  'ärger',
  'x²',
  'Ⅻ',
  'item7',
  '7seven',
  'A1',
  'Ab',
  'aB',
  'A',
  'URGENT',
  'NOW',
  'ok',
  'secret',
  'secrets',
  'never',
  'tell',
  "don't",
  'do',
  'not',
  'between',
  'us',
  'lie',
  'lied',
  'dead',
  'rumour',
  'plan',
  'a-b',
  'B-c',
  '_x',
  'ﬁne',
  'Σίσυφος',
  '.',
  '!',
  '?',
  '\n',
  ',',
  ':',
  '—',
  "'s",
];

describe('the heuristic against its first version (seeded texts)', () => {
  const textOf = (rng: SeededStream): string => {
    const n = 1 + rng.int(rng.chance(0.6) ? 5 : 30); // short texts: the named-things cap (2) hides less
    let text = '';
    for (let w = 0; w < n; w++) text += (rng.chance(0.2) ? '' : ' ') + rng.pick(PIECES);
    return text;
  };

  it('rates every text as the first version did, default and custom keywords', () => {
    const custom = {
      'never tell': 0.1,
      tell: 0.2,
      secret: 0.7,
      'secret plan': 0.05,
      'do not tell': 1.35,
      us: 0.5,
    };
    const cases = [
      { rate: estimateImportance, reference: referenceHeuristic() },
      {
        rate: createImportanceHeuristic({ keywords: custom, maxKeywordBonus: 9 }),
        reference: referenceHeuristic(custom, 9),
      },
    ];
    const rng = new SeededStream('importance-reference');
    const seen = new Set<number>();
    for (let c = 0; c < 1500; c++) {
      const text = textOf(rng);
      const kind = rng.pick(['observation', 'action', 'reflection'] as const);
      for (const { rate, reference } of cases) {
        const expected = reference(kind, text);
        expect(rate({ kind, text }), text).toBe(expected);
        seen.add(expected);
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(8); // the cases span the scale
  });
});
