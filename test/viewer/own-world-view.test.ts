// A user's world whose metrics are named freely (believers, corrected, ...: no `<item>.<metric>`
// keys) is pictured as a built-in one: the report has a figure per declared metric group, with
// the declared labels and units, and the viewer (real headless Chromium) draws the same panels,
// a force layout for its Barabási–Albert network, and each state in one colour everywhere.
import { copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Figure } from '../../src/report/index.ts';
import { cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { CHROMIUM, has } from '../support/tools.ts';
import { collectErrors, openBrowser, startView, type ViewServer } from './browser.ts';

const browserCases = has(CHROMIUM, 'the viewer of a world with freely named metrics in Chromium');
const dir = tempDir('own-world-view');
const log = join(dir, 'misinformation.ndjson');
const world = join(dir, 'misinformation.ts');
let browser: BrowserContext;
let server: ViewServer;
let page: Page;
let errors: string[];
let figures: Figure[];

beforeAll(async () => {
  copyFileSync(resolve('docs/examples/misinformation.ts'), world);
  const r = await cli(['run', world, '--set', 'n=400', '--out', log, '--quiet'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const rep = await cli(['report', log, '--world', world, '--json', '--quiet'], { cwd: dir });
  expect(rep.code, rep.stderr).toBe(0);
  figures = JSON.parse(rep.stdout).figures;
  if (!browserCases) return;
  [browser, server] = await Promise.all([openBrowser(), startView(log, ['--world', world])]);
  page = await browser.newPage();
  errors = collectErrors(page);
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
}, 300_000);

afterAll(async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.done;
});

describe('a world with freely named metrics', { timeout: 120_000 }, () => {
  it('gets a report figure per declared metric group, with its labels and unit', () => {
    const metricFigures = figures.filter((f) => f.id.startsWith('metric-'));
    expect(metricFigures.map((f) => f.id)).toEqual([
      'metric-readers-by-belief',
      'metric-debunking',
      'metric-believing',
    ]);
    const belief = metricFigures[0].chart!;
    expect(belief.series.map((s) => [s.key, s.name])).toEqual([
      ['believers', 'believers'],
      ['quiet', 'quiet believers'],
      ['corrected', 'corrected'],
    ]);
    expect(belief.yLabel).toBe('readers');
    expect(metricFigures[2].chart!.yLabel).toBe('share of readers');
  });

  it('a report without the world file still draws every metric, one figure each, by its key', async () => {
    const rep = await cli(['report', log, '--json', '--quiet', '--out', join(dir, 'bare.html')], {
      cwd: dir,
    });
    expect(rep.code).toBe(0);
    const ids = (JSON.parse(rep.stdout).figures as Figure[])
      .map((f) => f.id)
      .filter((id) => id.startsWith('metric-'));
    expect(ids.sort()).toEqual([
      'metric-believers',
      'metric-believing',
      'metric-corrected',
      'metric-debunking',
      'metric-quiet',
    ]);
  });
});

describe.runIf(browserCases)('the same world in the viewer (Chromium)', { timeout: 120_000 }, () => {
  it('the viewer draws the same panels, with axis titles, and no console errors', async () => {
    const panels = await page.$$eval('#curves [data-panel]', (els) =>
      els.map((e) => e.getAttribute('data-panel')),
    );
    expect(panels).toEqual(['metric-readers-by-belief', 'metric-debunking', 'metric-believing']);
    const titles = await page.$$eval('#curves .axis-title.y', (els) => els.map((e) => e.textContent));
    expect(titles).toEqual(['readers', 'readers', 'share of readers']);
    expect(await page.locator('#curves polyline[data-key="believers"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('a state has one colour: the network legend, the curve and the report', async () => {
    const legend = await page.$$eval('#legend span', (spans) =>
      Object.fromEntries(
        spans.map((s) => [
          s.textContent,
          (s.querySelector('i') as unknown as { style: { background: string } }).style.background,
        ]),
      ),
    );
    const curve = await page.getAttribute('#curves polyline[data-key="believers"]', 'stroke');
    const report = figures[0].chart!.series.find((s) => s.key === 'believers')!.colour!;
    expect(curve?.toLowerCase()).toBe(report.toLowerCase());
    const rgb = (hex: string) =>
      `rgb(${[1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16)).join(', ')})`;
    expect(legend.believer).toBe(rgb(report));
  });

  it('places the scale-free network by a force layout, cached beside the log, and offers the circle', async () => {
    type Drawn = { layout: string; x: number[]; y: number[] };
    const model = await page.evaluate(() => fetch('/api/model').then((r) => r.json() as Promise<Drawn>));
    expect(model.layout).toBe('force');
    expect(existsSync(`${log}.layout.json`)).toBe(true);
    // not a circle: the positions spread over the square, not on a ring of radius 0.45
    const radii = model.x.map((x, k) => Math.hypot(x - 0.5, model.y[k] - 0.5));
    expect(Math.min(...radii)).toBeLessThan(0.3);
    expect(await page.$$eval('#layout option', (os) => os.map((o) => o.textContent))).toEqual([
      'force',
      'circle',
    ]);
  });
});
