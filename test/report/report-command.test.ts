import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Figure, STATE_COLOURS } from '../../src/report/index.ts';
import { cli } from '../support/cli.ts';
import { cliChecked } from '../support/cli-in-process.ts';
import { lines } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';

const dir = tempDir('report');

// The runs and reports go in this process (the CLI's `main`, nothing left open): what is
// checked is the figures and the page a command writes, and a process start costs ~0.3 CPU-s.
// The tampered log is refused by a real process (its exit code and stderr without a stack).

type Report = { figures: Figure[]; ticks: number; digest: string };
const log = join(dir, 'run.ndjson');
let report: Report;
let events: Record<string, unknown>[];
let runLine: string;

beforeAll(async () => {
  const r = await cliChecked(['run', 'rumor', '--set', 'n=3000', '--seed', '5', '--out', log]);
  expect(r.code).toBe(0);
  runLine = r.stdout.split('\n')[0];
  const rep = await cliChecked(['report', log, '--json']);
  expect(rep.code).toBe(0);
  report = JSON.parse(rep.stdout);
  events = lines(log).map((l) => JSON.parse(l));
}, 60_000);

function fig(id: string): Figure {
  const f = report.figures.find((x) => x.id === id);
  if (!f) throw new Error(`no figure ${id}`);
  return f;
}

describe('grapevine report', () => {
  it('plots every tick metric exactly as the log records it, tick by tick', () => {
    const ticks = events.filter((e) => e.type === 'tick');
    // one definition of a run's tick count: its last tick, which the end line and run print
    const end = events.find((e) => e.type === 'end') as { ticks: number };
    expect(report.ticks).toBe(ticks.at(-1)!.t);
    expect(report.ticks).toBe(end.ticks);
    expect(ticks.length).toBe(end.ticks + 1); // tick 0 is the initial state
    expect(runLine).toContain(`: ${report.ticks} ticks (`);
    const drawn = new Set<string>();
    for (const f of report.figures.filter((x) => x.chart && !x.chart.logX && x.chart.xLabel === 'tick')) {
      for (const s of f.chart!.series) {
        if (s.key === undefined) continue;
        expect(s.x).toEqual(ticks.map((e) => e.t));
        expect(s.y).toEqual(ticks.map((e) => (e.metrics as Record<string, number>)[s.key!]));
        drawn.add(s.key);
      }
    }
    // every metric of the tick lines, once, but for a count that stays 0 at every tick on a
    // panel with others (rumor's "unconvinced" in Daley-Kendall): left out, named in the caption
    const metrics = ticks[0].metrics as Record<string, number>;
    const zero = (k: string) => ticks.every((e) => (e.metrics as Record<string, number>)[k] === 0);
    const left = Object.keys(metrics).filter((k) => !drawn.has(k));
    expect(left.length).toBeGreaterThan(0);
    for (const k of left) {
      expect(zero(k), k).toBe(true);
      expect(report.figures.some((f) => f.caption.includes(`"${k}" stay`))).toBe(true);
    }
    expect(drawn.size + left.length).toBe(Object.keys(metrics).length);
    expect(drawn.size).toBeGreaterThanOrEqual(12);
  });

  it('groups the metrics as the rumour world declares them, with labels, units and state colours', () => {
    const states = fig('metric-rumor-agents-per-state');
    expect(states.chart!.yLabel).toBe('agents');
    expect(states.chart!.xLabel).toBe('tick');
    const facts = fig('metric-fact-agents-per-state').chart!.series;
    // Daley-Kendall: nobody is "heard, unconvinced" of either item; left out, and named
    for (const f of [states.chart!.series, facts])
      expect(f.map((s) => s.name)).toEqual(['ignorant', 'spreader', 'stifler']);
    expect(states.caption).toMatch(/"rumor\.unconvinced" stays 0 throughout and is left out/);
    // a state has one colour: the same state of both items, and the viewer's (palette.ts)
    expect(states.chart!.series.map((s) => s.colour)).toEqual(facts.map((s) => s.colour));
    expect(new Set(facts.map((s) => s.colour)).size).toBe(3);
    expect(facts[0].colour).toBe(STATE_COLOURS[0]);
    expect(fig('metric-fraction-aware').chart!.yLabel).toBe('share of agents');
  });

  it('cascades reach as many agents as the world says heard each item', () => {
    const end = events.find((e) => e.type === 'end') as { summary: Record<string, { aware: number }> };
    const rows = fig('cascades').table!.rows;
    for (const item of ['fact', 'rumor']) {
      const row = rows.find((r) => r[0] === item)!;
      expect(row[1]).toBe(5); // one cascade per planted origin (5 insiders, 5 spreaders)
      expect(row[2]).toBe(end.summary[item].aware);
      expect(row[8]).toBe(0);
    }
  });

  it('asymmetry shares add to one and match the aware counts at the last tick', () => {
    const s = fig('asymmetry-fact-rumor').chart!.series;
    const last = s[0].y.length - 1;
    const total = s.reduce((a, x) => a + (x.y[last] as number), 0);
    expect(total).toBeCloseTo(1, 12);
    const lastTick = events.filter((e) => e.type === 'tick').at(-1)!.metrics as Record<string, number>;
    expect(((s[0].y[last] as number) + (s[2].y[last] as number)) * 3000).toBeCloseTo(
      lastTick['fact.aware'],
      6,
    );
    expect(((s[1].y[last] as number) + (s[2].y[last] as number)) * 3000).toBeCloseTo(
      lastTick['rumor.aware'],
      6,
    );
  });

  it('leaves out of the final-state table the states no agent is in, and names them', () => {
    const f = fig('asymmetry-final-fact-rumor');
    const rows = f.table!.rows;
    for (const r of rows) expect((r.slice(1) as number[]).some((c) => c > 0)).toBe(true);
    for (let j = 1; j < f.table!.columns.length; j++)
      expect(rows.some((r) => (r[j] as number) > 0)).toBe(true);
    const total = rows.reduce((a, r) => a + (r.slice(1) as number[]).reduce((x, y) => x + y, 0), 0);
    expect(total).toBe(3000);
    // Daley-Kendall agents never sit in the cascade models' "aware" state: not a row of zeros
    expect(rows.map((r) => r[0])).not.toContain('aware');
    expect(f.caption).toMatch(/No agent is in state .*aware/);
  });

  it('writes one self-contained HTML page beside the log with a caption per figure', () => {
    const html = readFileSync(join(dir, 'run.report.html'), 'utf8');
    // one caption per figure and table, and one for the parameter table (Table 1)
    expect(html.match(/<figcaption>/g)?.length).toBe(report.figures.length + 1);
    expect(html).toMatch(/<b>Table 1\. Parameters\.<\/b>/);
    const charts = report.figures.filter((f) => f.chart).length;
    expect(html.match(/<b>Figure \d+\./g)?.length).toBe(charts);
    expect(html.match(/<b>Table \d+\./g)?.length).toBe(report.figures.length - charts + 1);
    expect(html).toContain(`ran ${report.ticks} ticks after the initial state at tick 0`);
    expect(html.match(/<svg /g)?.length).toBe(report.figures.filter((f) => f.chart).length);
    expect(html).not.toMatch(/<script[^>]*src=|<link |url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    const data = html.match(/<script type="application\/json" id="report-data">(.*)<\/script>/)![1];
    expect(JSON.parse(data).figures).toEqual(report.figures);
  });

  it('refuses a tampered log with exit 2, like replay', async () => {
    const raw = lines(log);
    raw[3] = raw[3].replace(/"fact\.aware":(\d+)/, (_, n) => `"fact.aware":${Number(n) + 1}`);
    const bad = join(dir, 'tampered.ndjson');
    writeFileSync(bad, `${raw.join('\n')}\n`);
    const r = await cli(['report', bad, '--out', join(dir, 'x.html')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 4/);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('grapevine report on recorded golden logs', () => {
  it('reads an XState-executor log: cascades reach the summary counts', async () => {
    const r = await cliChecked([
      'report',
      'replays/golden/rumor-ic-xstate-full-v0.1.ndjson.gz',
      '--json',
      '--out',
      join(dir, 'x.html'),
    ]);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout) as Report;
    const rows = rep.figures.find((f) => f.id === 'cascades')!.table!.rows;
    expect(rows.map((x) => x[2])).toEqual([200, 123]);
  });

  it('counts the LLM calls and tokens of an LLM run', async () => {
    const path = 'replays/golden/town-square-v0.1.ndjson.gz';
    const r = await cliChecked(['report', path, '--json', '--out', join(dir, 'y.html')]);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout) as Report;
    const calls = rep.figures.find((f) => f.id === 'llm-calls')!.chart!.series[0].y as number[];
    expect(calls.reduce((a, b) => a + b, 0)).toBe(48);
    const tokens = rep.figures.find((f) => f.id === 'llm-tokens')!.chart!.series[0].y as number[];
    expect(tokens[1]).toBeGreaterThan(0);
  });
});
