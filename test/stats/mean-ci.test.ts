import { describe, expect, it } from 'vitest';
import { meanCi } from '../../src/stats/index.ts';

describe('meanCi', () => {
  it('matches scipy.stats.t.interval (scipy 1.17.1)', () => {
    const xs = [4.2, 5.1, 3.8, 6.0, 5.5, 4.9, 5.3];
    // numpy: mean 4.971428571428571, std(ddof=1) 0.7565586245499765, se 0.28595228182861765
    // t.interval(0.95, 6, loc=mean, scale=se) = (4.271728544160177, 5.671128598696964)
    // t.interval(0.90, 6, loc=mean, scale=se) = (4.4157717362108455, 5.527085406646295)
    const r = meanCi(xs);
    expect(r.n).toBe(7);
    expect(r.mean).toBeCloseTo(4.971428571428571, 12);
    expect(r.sd).toBeCloseTo(0.7565586245499765, 12);
    expect(r.se).toBeCloseTo(0.28595228182861765, 12);
    expect(r.lo).toBeCloseTo(4.271728544160177, 10);
    expect(r.hi).toBeCloseTo(5.671128598696964, 10);
    const r90 = meanCi(xs, 0.9);
    expect(r90.lo).toBeCloseTo(4.4157717362108455, 10);
    expect(r90.hi).toBeCloseTo(5.527085406646295, 10);
  });

  it('gives NaN bounds below two values', () => {
    const one = meanCi([3]);
    expect(one.n).toBe(1);
    expect(one.mean).toBe(3);
    for (const v of [one.sd, one.se, one.lo, one.hi]) expect(v).toBeNaN();
    const none = meanCi([]);
    expect(none.n).toBe(0);
    expect(none.mean).toBeNaN();
    expect(none.lo).toBeNaN();
  });
});
