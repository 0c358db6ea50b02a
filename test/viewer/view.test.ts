// `grapevine view` and the report page, driven in real headless Chromium (Debian's chromium
// through playwright-core) on a small recorded run. Without Chromium the browser cases are
// skipped with one line saying so (test/support/tools.ts); the others still run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.ts';
import { lines } from '../support/logs.ts';
import { tempDir } from '../support/temp-dir.ts';
import { CHROMIUM, has } from '../support/tools.ts';
import { collectErrors, openBrowser, startView, type ViewServer } from './browser.ts';

const browserCases = has(CHROMIUM, 'grapevine view in Chromium');
const dir = tempDir('view');
const log = join(dir, 'run.ndjson');
/** Where the screenshots go (gitignored). */
const OUT = resolve('.vitest-tmp/viewer');
let browser: BrowserContext;
let server: ViewServer;
let page: Page;
let errors: string[];
let ticks: { t: number; metrics: Record<string, number> }[];

// the log every case reads; no browser needed
beforeAll(async () => {
  const r = await cli(
    ['run', 'rumor', '--set', 'n=60', '--set', 'k=4', '--ticks', '12', '--log', 'full'].concat([
      '--out',
      log,
      '--quiet',
    ]),
  );
  expect(r.code).toBe(0);
  ticks = lines(log)
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === 'tick');
}, 120_000);

async function countsShown(): Promise<Record<string, number>> {
  return page.$$eval('#counts tr[data-state]', (rows) =>
    Object.fromEntries(
      rows.map((r) => [r.getAttribute('data-state'), Number(r.lastElementChild?.textContent)]),
    ),
  );
}

describe.runIf(browserCases)('grapevine view in Chromium', () => {
  beforeAll(async () => {
    server = await startView(log);
    browser = await openBrowser();
    page = await browser.newPage();
    errors = collectErrors(page);
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.done;
  });

  it('loads with no console errors and draws the run', async () => {
    expect(errors).toEqual([]);
    expect(await page.textContent('#title')).toContain('rumor seed 1');
    expect(await page.locator('#curves polyline').count()).toBeGreaterThan(0);
    expect(await page.locator('#asymmetry-chart polyline').count()).toBe(4);
  });

  it('the scrubber gives the state counts of the log at that tick, for each item', async () => {
    const j = 3;
    await page.locator('#scrubber').fill(String(j));
    expect(await page.textContent('#tick-label')).toBe(`tick ${ticks[j].t}`);
    for (const item of ['fact', 'rumor']) {
      await page.selectOption('#region', { label: item });
      const shown = await countsShown();
      // `aware` is a metric (ever heard), not the statechart state of the same name
      for (const s of ['ignorant', 'spreader', 'stifler'])
        expect(shown[s]).toBe(ticks[j].metrics[`${item}.${s}`]);
    }
    await page.selectOption('#mode', 'knows');
    const knows = await countsShown();
    const m = ticks[j].metrics;
    expect(knows.both + knows['only fact']).toBe(m['fact.aware']);
    expect(knows.both + knows['only rumor']).toBe(m['rumor.aware']);
    await page.selectOption('#mode', 'state');
    await page.selectOption('#region', { label: 'fact' });
  });

  it('clicking an agent shows what inspect shows: its observations up to the tick and its provenance', async () => {
    const heard = lines(log)
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'encounter' && e.heard && e.t >= 1 && e.from !== e.to);
    const agent = heard.to as number;
    const j = ticks.length - 1;
    await page.locator('#scrubber').fill(String(j));
    type Drawn = { nodes: number[]; x: number[]; y: number[] };
    const model = await page.evaluate(() => fetch('/api/model').then((r) => r.json() as Promise<Drawn>));
    const k = model.nodes.indexOf(agent);
    const box = (await page.locator('#network').boundingBox())!;
    await page.mouse.click(box.x + model.x[k] * box.width, box.y + model.y[k] * box.height);
    await page.waitForSelector(`body[data-agent="${agent}"]`);
    const shown = await page.locator('#observations li').allTextContents();
    const inspect = await cli(['inspect', log, '--agent', String(agent), '--json']);
    expect(inspect.code).toBe(0);
    const observed = JSON.parse(inspect.stdout).observed as { messages: { from: number }[] }[];
    expect(shown.length).toBe(observed.reduce((n, o) => n + o.messages.length, 0));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.join('\n')).toContain(`from ${heard.from}`);
    expect(await page.textContent('#provenance')).toContain(`agent ${heard.from}`);
    expect(await page.locator('#encounters li').count()).toBeGreaterThan(0);
    mkdirSync(OUT, { recursive: true });
    const png = await page.screenshot({ path: join(OUT, 'viewer.png'), fullPage: true });
    expect(png.length).toBeGreaterThan(10_000);
    expect(errors).toEqual([]);
  });

  it('opens the report page offline with its plots', async () => {
    const out = join(dir, 'run.report.html');
    expect((await cli(['report', log, '--out', out, '--quiet'])).code).toBe(0);
    const report = await browser.newPage();
    const reportErrors = collectErrors(report);
    const requests: string[] = [];
    report.on('request', (r) => requests.push(r.url()));
    await report.goto(`file://${out}`);
    const figures = await report.locator('figure').count();
    expect(figures).toBeGreaterThan(3);
    expect(await report.locator('figure svg polyline, figure svg path').count()).toBeGreaterThan(0);
    expect(await report.locator('figcaption').count()).toBe(figures);
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    await report.screenshot({ path: join(OUT, 'report.png'), fullPage: true });
    expect(reportErrors).toEqual([]);
  });
});

describe('grapevine view on a bad log', () => {
  it('exits 2 with one line and a hint for a tampered log', async () => {
    const raw = lines(log);
    const i = raw.findIndex((l) => l.includes('"type":"tick"'));
    raw[i] = raw[i].replace('"stepped":0', '"stepped":1');
    const bad = join(dir, 'tampered.ndjson');
    writeFileSync(bad, `${raw.join('\n')}\n`);
    const r = await cli(['view', bad, '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hint/);
    expect(r.stdout).toBe('');
  });

  it('exits 2 for a missing log', async () => {
    const r = await cli(['view', join(dir, 'missing.ndjson'), '--port', '0']);
    expect(r.code).toBe(2);
  });
});

/** One GET to the view server with the given Host header: the status and body. */
function getWithHost(url: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((done, fail) => {
    // '' sends no Host header at all
    const headers = host === '' ? {} : { host };
    const req = request({ host: u.hostname, port: u.port, path, headers, setHost: false }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('grapevine view and the Host header (DNS rebinding)', () => {
  it('answers 127.0.0.1 and localhost, and refuses any other name before reading the request', async () => {
    const view = await startView(log);
    try {
      const port = new URL(view.url).port;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', `[::1]:${port}`]) {
        const r = await getWithHost(view.url, '/api/model', host);
        expect(r.status, host).toBe(200);
        expect(JSON.parse(r.body)).toHaveProperty('ticks');
      }
      for (const host of [`evil.example:${port}`, 'attacker.test', `127.0.0.1.evil.example:${port}`, '']) {
        for (const path of ['/api/model', '/api/agent/0', '/']) {
          const r = await getWithHost(view.url, path, host);
          // no Host at all: Node's server refuses the HTTP/1.1 request itself (400)
          expect(r.status, `${host} ${path}`).toBe(host === '' ? 400 : 421);
          expect(r.body).not.toContain('rumor');
        }
      }
    } finally {
      view.child.kill('SIGTERM');
      await view.done;
    }
  }, 120_000);
});
