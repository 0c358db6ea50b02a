// The report pages as a reader sees them, in Debian's headless Chromium (playwright-core, as
// test/viewer does): a run's report, a fork batch's, a sweep's, and the batch report of a
// world file written outside the checkout. At a wide screen's width and at a printed page's,
// nothing scrolls sideways, no chart text (legend, labels) falls outside its drawing, no
// marker crosses its frame, and the charts fill the text column. Screenshots go to
// .vitest-tmp/report-layout/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { CHROMIUM, has } from '../support/tools.ts';
import { USER_SIR_WORLD } from '../support/user-sir-world.ts';
import { openBrowser } from '../viewer/browser.ts';

const browserCases = has(CHROMIUM, 'the report pages in Chromium');
const dir = tempDir('report-layout');
const SHOTS = resolve('.vitest-tmp/report-layout');
let browser: BrowserContext;

async function ok(args: string[]): Promise<void> {
  const r = await cli(args, { cwd: dir, timeoutMs: 300_000 });
  if (r.code !== 0) throw new Error(`grapevine ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
}

const PAGES = {
  run: 'run.report.html',
  batch: 'batch/report.html',
  sweep: 'sweep/report.html',
  user: 'user-batch/report.html',
};

beforeAll(async () => {
  if (!browserCases) return;
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(dir, 'sir.ts'), USER_SIR_WORLD);
  writeFileSync(join(dir, 'tell.yaml'), 'type: message\nto: { agent: 3 }\nkind: tell\nitem: fact\n');
  await ok(['run', 'rumor', '--set', 'n=1000', '--seed', '2', '--out', 'run.ndjson', '--report', '--quiet']);
  await ok([
    'fork',
    'run.ndjson',
    '--at',
    '6',
    '--intervene',
    'tell.yaml',
    '--replicates',
    '6',
    '--out',
    'batch',
    '--quiet',
  ]);
  await ok(['report', 'batch', '--welch', '--quiet']);
  const sweep = [
    'sweep',
    'rumor',
    '--grid',
    'p=0.05,0.1,0.2',
    '--set',
    'n=200',
    '--set',
    'model=independent-cascade',
  ];
  await ok([...sweep, '--replicates', '3', '--shared-seeds', '--workers', '1', '--out', 'sweep', '--quiet']);
  await ok(['run', './sir.ts', '--seed', '4', '--out', 'user.ndjson', '--quiet']);
  await ok([
    'fork',
    'user.ndjson',
    '--world',
    './sir.ts',
    '--at',
    '5',
    '--set',
    'gamma=0.2',
    '--replicates',
    '6',
    '--out',
    'user-batch',
    '--quiet',
  ]);
  await ok(['report', 'user-batch', '--quiet']);
  browser = await openBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
});

interface Layout {
  scrollWidth: number;
  clientWidth: number;
  /** Chart texts whose box leaves the drawing (legend entries, tick labels, titles). */
  outside: string[];
  /** Markers that cross their chart's frame. */
  crossing: number;
  /** Tables whose right edge passes the text column's. */
  wideTables: number;
  /** The narrowest chart's width over the text column's. */
  chartShare: number;
  charts: number;
}

/**
 * What the page shows, measured in the browser (a script's text: the tests are compiled
 * without the DOM's types). Boxes are compared on screen, so rotated axis titles count as
 * drawn.
 */
const MEASURE = `(() => {
  const body = document.body.getBoundingClientRect();
  const pad = parseFloat(getComputedStyle(document.body).paddingLeft) * 2;
  const column = body.width - pad;
  const outside = [];
  let crossing = 0;
  const charts = [...document.querySelectorAll('svg.chart')];
  for (const svg of charts) {
    const box = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBoundingClientRect();
      if (b.left < box.left - 0.5 || b.top < box.top - 0.5 || b.right > box.right + 0.5 || b.bottom > box.bottom + 0.5)
        outside.push(t.textContent);
    }
    const f = svg.querySelector('rect.frame').getBoundingClientRect();
    for (const c of svg.querySelectorAll('circle')) {
      const r = c.getBoundingClientRect();
      if (r.left < f.left - 0.5 || r.right > f.right + 0.5 || r.top < f.top - 0.5 || r.bottom > f.bottom + 0.5) crossing++;
    }
  }
  const wideTables = [...document.querySelectorAll('table')].filter((t) => t.getBoundingClientRect().right > body.right + 0.5).length;
  const widths = charts.map((s) => s.getBoundingClientRect().width);
  return {
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    outside,
    crossing,
    wideTables,
    chartShare: widths.length ? Math.min(...widths) / column : 1,
    charts: charts.length,
  };
})()`;

describe.runIf(browserCases)('report pages in Chromium', { timeout: 120_000 }, () => {
  for (const [name, file] of Object.entries(PAGES))
    for (const [media, width] of [
      ['screen', 1400],
      ['print', 700],
    ] as const)
      it(`${name} report, ${media} at ${width} px: no sideways scroll, nothing clipped, charts at the column's width`, async () => {
        const page = await browser.newPage();
        try {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ media });
          await page.goto(`file://${join(dir, file)}`);
          const m = (await page.evaluate(MEASURE)) as Layout;
          await page.screenshot({ path: join(SHOTS, `${name}-${media}.png`), fullPage: true });
          expect(m.charts, 'charts on the page').toBeGreaterThan(0);
          expect(m.scrollWidth).toBeLessThanOrEqual(m.clientWidth);
          expect(m.outside).toEqual([]);
          expect(m.crossing).toBe(0);
          expect(m.wideTables).toBe(0);
          expect(m.chartShare).toBeGreaterThan(0.9);
        } finally {
          await page.close();
        }
      });
});
