import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIMENSION_NAMES } from '../../../../worlds/sotopia/dimensions.ts';
import { importSotopia } from '../../../../worlds/sotopia/importer.ts';
import type { SotopiaEnvironment } from '../../../../worlds/sotopia/records.ts';
import { episodeSeed, type StudyConfig } from '../../../../worlds/sotopia/study/plan.ts';
import { buildReport } from '../../../../worlds/sotopia/study/report.ts';
import { renderReportHtml } from '../../../../worlds/sotopia/study/report-html.ts';
import type { EpisodeResult } from '../../../../worlds/sotopia/study/report-rows.ts';
import type { SotopiaSummary } from '../../../../worlds/sotopia/summary.ts';
import type { Mode } from '../../../../worlds/sotopia/views.ts';
import { tempDir } from '../../../support/temp-dir.ts';
import { CHROMIUM, has } from '../../../support/tools.ts';
import { openBrowser } from '../../../viewer/browser.ts';

// The study report as a reader sees it: report.html of a four-mode study (six mode pairs,
// the longest legend labels) opened in headless Chromium at a laptop's width. Every text of
// every plot must lie inside its figure (no legend cut off) and be drawn at 11 px or more,
// and no two texts of a plot may overlap. Each plot is also saved as a screenshot.

const MODES: Mode[] = ['agents', 'mindreaders', 'script', 'playwright'];
const envs = importSotopia()
  .environments.filter((e) => e.source === 'social_iqa')
  .slice(0, 3);

function result(e: SotopiaEnvironment, mode: Mode, base: number): EpisodeResult {
  const agent = () => {
    const d = {
      believability: base,
      relationship: base - 5,
      knowledge: base,
      secret: -base,
      social_rules: -1,
      financial_and_material_benefits: 0,
      goal: base,
    };
    const overall = DIMENSION_NAMES.reduce((n, k) => n + d[k], 0) / 7;
    return { ...d, overall, reasoning: Object.fromEntries(DIMENSION_NAMES.map((k) => [k, 'r'])) };
  };
  const summary = {
    envId: e.env_id,
    codename: e.codename,
    source: e.source,
    mode,
    pair: 0,
    relationship: e.relationship,
    agents: [],
    endReason: 'max-turns',
    turns: 1,
    words: 2,
    wordsBySeat: [2, 0],
    fallbackTurns: 0,
    transcript: [{ turn: 1, speaker: 0, name: 'A', action: 'speak', text: 'hello there', fallback: false }],
    scores: { agent0: agent(), agent1: agent() },
    judge: { model: 'm', fallback: false, errors: [] },
  } as unknown as SotopiaSummary;
  const episode = {
    envId: e.env_id,
    codename: e.codename,
    source: e.source,
    pair: 0,
    mode,
    seed: episodeSeed(1, e.env_id, 0),
    log: `episodes/${e.codename}-${mode}.ndjson`,
    unit: `${e.env_id}/p0`,
  };
  return { episode, summary, digest: 'd'.repeat(64), reason: 'episode-end' };
}

const config: StudyConfig = {
  kind: 'sotopia',
  modes: MODES,
  scenarios: envs.map((e) => e.env_id).join(','),
  pairs: 1,
  seed: 1,
  maxTurns: 20,
  model: 'grapevine-local',
  judgeModel: 'judge',
  judgeSame: false,
  protocol: 'zhou2024',
  rubric: 'basic',
  models: null,
  templates: '',
  templateHashes: {},
  data: '',
};

/** What the page measures of one plot's texts. */
interface Measured {
  figure: { left: number; right: number; top: number; bottom: number };
  texts: { text: string; left: number; right: number; top: number; bottom: number; px: number }[];
}

describe.runIf(has(CHROMIUM, 'the study report in Chromium'))('the study report in a browser', () => {
  let browser: BrowserContext;
  const dir = process.env.REPORT_SHOTS ?? tempDir('grapevine-report-browser-');
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('every plot text lies inside its figure, at 11 px or more, none over another (1024 px wide page)', async () => {
    const results = MODES.flatMap((m, k) => envs.map((e, j) => result(e, m, 3 + k + j)));
    const page = join(dir, 'report.html');
    writeFileSync(page, renderReportHtml(buildReport(config, envs, results)));
    const tab = await browser.newPage();
    await tab.setViewportSize({ width: 1024, height: 800 });
    await tab.goto(pathToFileURL(page).href);
    const figures = await tab.$$('figure.plot');
    expect(figures).toHaveLength(2);
    for (const [k, figure] of figures.entries()) {
      await figure.screenshot({ path: join(dir, `figure-${k + 1}.png`) });
      const m: Measured = await figure.evaluate((f) => {
        const svg = f.querySelector('svg')!;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const box = svg.getBoundingClientRect();
        return {
          figure: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
          texts: [...svg.querySelectorAll('text')].map((t) => {
            const r = t.getBoundingClientRect();
            const px = Number(t.getAttribute('font-size') ?? 16) * scale;
            return {
              text: t.textContent ?? '',
              left: r.left,
              right: r.right,
              top: r.top,
              bottom: r.bottom,
              px,
            };
          }),
        };
      });
      expect(m.texts.length).toBeGreaterThan(20);
      for (const t of m.texts) {
        expect(t.left, `figure ${k + 1}: "${t.text}" starts outside the plot`).toBeGreaterThanOrEqual(
          m.figure.left - 0.5,
        );
        expect(t.right, `figure ${k + 1}: "${t.text}" is cut off`).toBeLessThanOrEqual(m.figure.right + 0.5);
        expect(t.bottom, `figure ${k + 1}: "${t.text}" is cut off below`).toBeLessThanOrEqual(
          m.figure.bottom + 0.5,
        );
        expect(t.px, `figure ${k + 1}: "${t.text}" is drawn at ${t.px} px`).toBeGreaterThanOrEqual(11);
      }
      for (const [i, a] of m.texts.entries())
        for (const b of m.texts.slice(i + 1)) {
          const overlap =
            a.left < b.right - 0.5 &&
            b.left < a.right - 0.5 &&
            a.top < b.bottom - 0.5 &&
            b.top < a.bottom - 0.5;
          expect(overlap, `figure ${k + 1}: "${a.text}" and "${b.text}" overlap`).toBe(false);
        }
    }
    // the longest pair label of figure 2 is there whole
    expect(
      await figures[1].evaluate((f) => [...f.querySelectorAll('text.legend')].map((t) => t.textContent)),
    ).toContain('playwright − mindreaders');
    await tab.close();
  });
});
