// Debian's chromium driven by playwright-core, for the browser tests (test/e2e): where it is,
// whether the tests run (CI must; a laptop without it skips, saying how to enable it), and a
// session that keeps every request on the local host and records what went wrong in the page.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where screenshots go (CI keeps the folder as the run's artefacts). */
export const RESULTS_DIR = resolve(fileURLToPath(import.meta.url), '../../../test-results');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether the browser tests of `what` are skipped: only without Chromium and outside CI, and
 * then they say so and how to run them.
 */
export function skipWithoutChromium(what: string): boolean {
  const skipped = !existsSync(CHROMIUM) && process.env.CI !== 'true';
  if (skipped) {
    console.warn(
      `browser test of ${what} SKIPPED: no Chromium at ${CHROMIUM}. To run it, install Debian's ` +
        'chromium (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium binary. ' +
        'With CI=true a missing Chromium fails the run instead.',
    );
  }
  return skipped;
}

/** Chromium, or the error CI must fail with when it is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} not found and CI=true requires the browser tests: install Debian's chromium ` +
        '(apt-get install chromium) or set CHROMIUM_PATH',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** What one browser context saw: every request, and what went wrong. */
export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Every request the page made (method and URL), in order. */
  requests: string[];
  /** Requests to anything but `origin` (aborted before they leave). */
  foreign: Set<string>;
  /** Content-Security-Policy violations and uncaught page errors. */
  pageErrors: string[];
  /** Every console message of type error. */
  consoleErrors: string[];
}

/** The origin itself, or a URL that never touches the network (data:, blob:, about:). */
export function isLocal(url: string, origin: string): boolean {
  if (/^(data|blob|about):/.test(url)) return true;
  return new URL(url).origin === origin;
}

/**
 * A new context and page whose requests may only go to `origin`: any other is recorded in
 * `foreign` and aborted, so nothing leaves the machine even when the page tries.
 */
export async function watchedPage(
  browser: Browser,
  origin: string,
  options: BrowserContextOptions = {},
): Promise<Watched> {
  const context = await browser.newContext(options);
  const watched: Watched = {
    context,
    page: await context.newPage(),
    requests: [],
    foreign: new Set(),
    pageErrors: [],
    consoleErrors: [],
  };
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocal(url, origin)) return route.continue();
    watched.foreign.add(`${route.request().method()} ${url}`);
    return route.abort('blockedbyclient');
  });
  watchPage(watched, watched.page, origin);
  return watched;
}

/**
 * Records what `page` (another tab of the watched context) requests and what goes wrong in it,
 * into `watched`, as for its first page.
 */
export function watchPage(watched: Watched, page: Page, origin: string): void {
  page.on('request', (request) => {
    watched.requests.push(`${request.method()} ${request.url()}`);
    if (!isLocal(request.url(), origin))
      watched.foreign.add(`${request.method()} ${request.url()}`);
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to/i.test(message.text())) {
      watched.pageErrors.push(`console: ${message.text()}`);
    }
    if (message.type() === 'error') watched.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => watched.pageErrors.push(`pageerror: ${error.message}`));
}

/**
 * Runs one step of a flow; a failure names the step, keeps a screenshot of the page in
 * `screenshot`, and lists the page's errors and requests.
 */
export async function step<T>(
  watched: Watched,
  screenshot: string,
  name: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    await watched.page.screenshot({ path: screenshot, fullPage: true }).catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `step "${name}" failed (screenshot: ${screenshot}): ${message}\n` +
        `page errors: ${JSON.stringify(watched.pageErrors)}\n` +
        `console errors: ${JSON.stringify(watched.consoleErrors)}\n` +
        `requests: ${JSON.stringify(watched.requests)}`,
      { cause: error },
    );
  }
}

/** Every axe-core violation on the page as it is now, of any impact, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}
