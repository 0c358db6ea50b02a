import type { ChildProcess } from 'node:child_process';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { type CliOutcome, cli } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { chromiumPath } from '../support/tools.ts';

/** Headless Chromium (test/support/tools.ts finds it) with no network chatter, in a fresh profile directory. */
export async function openBrowser(): Promise<BrowserContext> {
  const profile = tempDir('chromium');
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    chromiumSandbox: false,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Collects console errors and uncaught page errors of a page. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

/** A `grapevine view` subprocess and the URL it serves. */
export interface ViewServer {
  url: string;
  child: ChildProcess;
  done: Promise<CliOutcome>;
}

/** Starts `grapevine view <log> --port 0` and waits until it prints its URL (or exits). */
export function startView(log: string, extra: readonly string[] = []): Promise<ViewServer> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess | undefined;
    let out = '';
    const done = cli(['view', log, '--port', '0', ...extra], {
      timeoutMs: 120_000,
      longLived: true,
      onSpawn: (c) => {
        child = c;
        c.stdout?.on('data', (d) => {
          out += d;
          const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
          if (m && child) resolve({ url: m[1], child, done });
        });
      },
    });
    void done.then((r) => reject(new Error(`view exited ${r.code}: ${r.stderr}`)));
  });
}
