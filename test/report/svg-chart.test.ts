import { describe, expect, it } from 'vitest';
import { linearScale, logScale, svgChart } from '../../src/report/index.ts';

describe('chart scales', () => {
  it('linear: round ticks, and headroom above data that ends on a tick', () => {
    const s = linearScale(0, 2000, 0.02, 0);
    expect(s.ticks).toEqual([0, 500, 1000, 1500, 2000]);
    expect(s.lo).toBe(0);
    expect(s.hi).toBeCloseTo(2040, 9);
    expect(linearScale(0.013, 0.87).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(linearScale(5, 5).ticks.length).toBeGreaterThan(1);
  });

  it('log: ticks at the powers of ten the data spans, labelled as values', () => {
    const s = logScale(3, 316);
    expect(s.ticks).toEqual([0, 1, 2, 3]);
    expect(s.ticks.map(s.label)).toEqual(['1', '10', '100', '1000']);
  });
});

describe('svgChart', () => {
  const base = { title: 'T', xLabel: 'tick', yLabel: 'y' };

  it('draws a band as shaded polygons over its defined runs, behind its line', () => {
    const svg = svgChart({
      ...base,
      bandLabel: '95% CI',
      series: [
        {
          name: 'a',
          x: [0, 1, 2, 3, 4],
          y: [1, 2, 3, 4, 5],
          band: { lo: [0, 1, null, 3, 4], hi: [2, 3, null, 5, 6] },
        },
      ],
    });
    const polys = svg.match(/<polygon points="([^"]*)"/g) ?? [];
    expect(polys).toHaveLength(2); // the null at x = 2 splits the band
    expect(polys.map((p) => p.split(' ').length - 1)).toEqual([4, 4]); // 2 points up, 2 back
    expect(svg.indexOf('<polygon')).toBeLessThan(svg.indexOf('<polyline'));
    expect(svg).toContain('shaded: 95% CI');
    // one line, not three: the band is not drawn as extra series
    expect(svg.match(/<polyline/g)).toHaveLength(1);
  });

  it('keeps markers inside the frame and legends inside the drawing', () => {
    const long = 'a very long series name that would never fit beside the chart';
    const svg = svgChart({ ...base, mark: 'points', series: [{ name: long, x: [1, 10], y: [0, 20] }] });
    const frame = svg
      .match(/class="frame" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/)!
      .slice(1)
      .map(Number);
    for (const m of svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"/g)) {
      const [cx, cy, r] = m.slice(1).map(Number);
      expect(cx - r).toBeGreaterThanOrEqual(frame[0]);
      expect(cx + r).toBeLessThanOrEqual(frame[0] + frame[2]);
      expect(cy - r).toBeGreaterThanOrEqual(frame[1]);
      expect(cy + r).toBeLessThanOrEqual(frame[1] + frame[3]);
    }
    // the name is cut to the legend's width, with the whole name as its tooltip
    expect(svg).toContain(`<title>${long}</title>`);
    expect(svg).toMatch(/…<\/text>/);
  });

  it('draws rules and scales to its column (a viewBox, no fixed pixel width)', () => {
    const svg = svgChart({
      ...base,
      rules: [{ x: 2, label: 'fork (tick 2)' }],
      series: [{ name: 'a', x: [0, 5], y: [0, 1] }],
    });
    expect(svg).toContain('stroke-dasharray');
    expect(svg).toContain('fork (tick 2)');
    expect(svg).toMatch(/viewBox="0 0 \d+ \d+" width="100%"/);
  });
});
