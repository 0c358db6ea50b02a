import { describe, expect, it } from 'vitest';
import type { RelevanceScorer } from '../../src/memory/index.ts';

/** The contract every {@link RelevanceScorer} must honour. */
export function relevanceScorerCase(name: string, make: () => RelevanceScorer): void {
  describe(`${name} (RelevanceScorer contract)`, () => {
    const texts = [
      'Bob hid the gold coins under the bridge',
      'it will rain tomorrow, a storm is coming',
      'the soup and bread for dinner were good',
      'Bob hid the gold coins under the bridge',
    ];

    it('returns one score in [0, 1] per text, in order', async () => {
      const scores = await make().score('where is the gold?', texts);
      expect(scores).toHaveLength(texts.length);
      for (const s of scores) {
        expect(Number.isFinite(s)).toBe(true);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
      }
    });

    it('is deterministic and gives equal texts equal scores', async () => {
      const a = await make().score('gold coins', texts);
      const scorer = make();
      const b = await scorer.score('gold coins', texts);
      const c = await scorer.score('gold coins', texts);
      expect(b).toEqual(a);
      expect(c).toEqual(a);
      expect(a[0]).toBe(a[3]);
    });

    it('scores the text about the query above unrelated ones', async () => {
      const [gold, rain, soup] = await make().score('gold coins', texts);
      expect(gold).toBeGreaterThan(rain);
      expect(gold).toBeGreaterThan(soup);
    });

    it('returns an empty array for no texts', async () => {
      expect(await make().score('anything', [])).toEqual([]);
    });
  });
}
