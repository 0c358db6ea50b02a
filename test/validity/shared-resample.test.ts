import { describe, expect, it } from 'vitest';
import { SeededStream } from '../../src/core/index.ts';
import { jensenShannon, totalVariation, wasserstein1 } from '../../src/validity/index.ts';
import { bootstrapTriple, TripleDistance } from '../../src/validity/shared-resample.ts';

function randomShares(k: number, rng: SeededStream): number[] {
  const w = Array.from({ length: k }, () => (rng.next() < 0.2 ? 0 : rng.next()));
  const s = w.reduce((a, b) => a + b, 0) || 1;
  return w.map((x) => x / s);
}
const record = (options: string[], v: number[]) => Object.fromEntries(options.map((o, i) => [o, v[i]]));

describe('shared-resample distances', () => {
  it('give exactly the TV, JS and W1 of the record functions, on unsorted numeric and on nominal options', () => {
    const rng = new SeededStream('triple');
    for (const options of [
      ['3', '0', '10', '1', '2.5'],
      ['car', 'bike', 'walk'],
    ]) {
      const dist = new TripleDistance(options);
      for (let t = 0; t < 50; t++) {
        const p = randomShares(options.length, rng);
        const q = randomShares(options.length, rng);
        const [tv, js, w1] = dist.distances(p, q);
        const [rp, rq] = [record(options, p), record(options, q)];
        expect(tv).toBeCloseTo(totalVariation(rp, rq), 12);
        expect(js).toBeCloseTo(jensenShannon(rp, rq), 12);
        if (dist.numeric) expect(w1).toBeCloseTo(wasserstein1(rp, rq), 12);
        else expect(w1).toBeNaN();
      }
    }
  });

  it('bootstraps all three from one resample: a constant sample has zero-width CIs at the exact distances', () => {
    const dist = new TripleDistance(['1', '2', '3']);
    const human = Float64Array.from([0.2, 0.3, 0.5]);
    const [tv, js, w1] = bootstrapTriple([0, 0, 0, 0], human, dist, { replicates: 50, rng: () => 0.5 });
    expect(tv).toEqual({ estimate: 0.8, lo: 0.8, hi: 0.8 });
    expect(w1.estimate).toBeCloseTo(1.3, 12);
    expect(js.lo).toBe(js.estimate);
    const none = bootstrapTriple([], human, dist, { replicates: 50, rng: () => 0.5 });
    expect(none[0].lo).toBeNaN();
  });
});
