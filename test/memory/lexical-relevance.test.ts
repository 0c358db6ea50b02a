import { describe, expect, it } from 'vitest';
import { LexicalRelevance, recall, tokenize } from '../../src/memory/index.ts';
import { fillerMemories, streamOf } from './fixtures.ts';
import { relevanceScorerCase } from './relevance-scorer.case.ts';

relevanceScorerCase('LexicalRelevance', () => new LexicalRelevance());
relevanceScorerCase('LexicalRelevance (memoised)', () => new LexicalRelevance({ cacheSize: 2 }));

describe('tokenize', () => {
  it('lowercases, keeps unicode letters and digits, drops stop words and folds plurals', () => {
    expect(tokenize("Alice's SECRETS are in the Café №5, über-Ärger!")).toEqual([
      'alice',
      'secret',
      'café',
      'no5', // NFKC: № is No
      'über',
      'ärger',
    ]);
    expect(tokenize("Don't tell: the boss's class", { stem: false })).toEqual([
      'don',
      'tell',
      'boss',
      'class',
    ]);
    expect(tokenize('東京 で 会いましょう')).toEqual(['東京', 'で', '会いましょう']);
    expect(tokenize('the and of')).toEqual([]);
  });
});

describe('LexicalRelevance', () => {
  const scorer = new LexicalRelevance();

  it('gives 1 to a text with every query term and 0 to one with none', () => {
    expect(scorer.scoreSync('blue vase', ['a blue vase here', 'nothing at all'])).toEqual([1, 0]);
  });

  it('weighs rare shared terms above common ones', () => {
    const texts = ['Bob saw the river', 'Bob saw the market', 'Bob saw the gold', 'Eve found gold'];
    const [, , bobGold, eveGold] = scorer.scoreSync('Bob gold', texts);
    const onlyBob = scorer.scoreSync('Bob gold', texts)[0];
    expect(bobGold).toBe(1);
    expect(eveGold).toBeGreaterThan(onlyBob);
  });

  it('scores zero for an empty or stop-word query', () => {
    expect(scorer.scoreSync('', ['a', 'b'])).toEqual([0, 0]);
    expect(scorer.scoreSync('the of', ['the of'])).toEqual([0]);
  });

  it('matches plurals and possessives', () => {
    expect(scorer.scoreSync("Carol's keys", ['carol lost a key'])).toEqual([1]);
  });

  it('gives the same scores with a memo as without', () => {
    const state = streamOf(fillerMemories(200, 'memo'));
    const memo = new LexicalRelevance({ cacheSize: 50 });
    for (const q of ['Alice the market', 'painted school', 'Gus'])
      for (let i = 0; i < 2; i++)
        expect(recall(state, q, { relevance: memo, k: 30 })).toEqual(recall(state, q, { k: 30 }));
  });
});
