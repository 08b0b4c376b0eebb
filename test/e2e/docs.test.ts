// The interactive docs in a real browser: Debian's chromium (driven by playwright-core) opens
// /docs on the local host (DynamoDB Local, recorded YouTube, offline model), registers through
// "Try it out", logs in with "Authorize" (the OAuth2 password flow against /token) and
// summarises the recorded video, all through Swagger UI. Nothing may leave the local host.

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  RESULTS_DIR,
  skipWithoutChromium,
  type Watched,
  watchedPage,
  step as watchedStep,
} from '../support/browser';
import { FAKE_VIDEO_IDS } from '../support/fake-youtube';
import { type SummarizeEnv, startSummarizeEnv } from '../support/summarize-env';

const SKIPPED = skipWithoutChromium('/docs');
const SCREENSHOT = resolve(RESULTS_DIR, 'docs-e2e.png');
const FAILURE_SCREENSHOT = resolve(RESULTS_DIR, 'docs-e2e-failure.png');
const VIDEO_TITLE = 'Surface Go Review - It’s Awesome';
/** Long enough for a cold bcrypt hash and the first summary on a loaded two-core machine. */
const UI_TIMEOUT = 30_000;

let env: SummarizeEnv;
let browser: Browser;
let watched: Watched;
let page: Page;
let origin: string;

beforeAll(async () => {
  if (SKIPPED) return;
  browser = await launchChromium();
  env = await startSummarizeEnv();
  origin = new URL(env.host.url).origin;
  watched = await watchedPage(browser, origin, { viewport: { width: 1280, height: 900 } });
  page = watched.page;
  page.setDefaultTimeout(UI_TIMEOUT);
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

/** One step of the flow; a failure names the step and keeps a screenshot of the page. */
const step = <T>(name: string, run: () => Promise<T>) =>
  watchedStep(watched, FAILURE_SCREENSHOT, name, run);

/** The operation block of `POST <path>`. */
const operation = (path: string): Locator =>
  page.locator('.opblock.opblock-post').filter({
    has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
  });

/** Expands an operation, switches to "Try it out" and returns the example body it shows. */
async function openTryItOut(block: Locator): Promise<unknown> {
  await block.locator('.opblock-summary-control').click();
  const tryItOut = block.getByRole('button', { name: 'Try it out' });
  // With tryItOutEnabled the editor may already be open (the button then reads "Cancel").
  if (await tryItOut.isVisible()) await tryItOut.click();
  return JSON.parse(await block.locator('textarea.body-param__text').inputValue());
}

/** Collapses an expanded operation, as openTryItOut() expects to find it. */
async function collapse(block: Locator): Promise<void> {
  await block.locator('.opblock-summary-control').click();
}

/** Expands an operation, switches to "Try it out" and fills its JSON body. */
async function fillTryItOut(block: Locator, body: unknown): Promise<void> {
  await openTryItOut(block);
  await block.locator('textarea.body-param__text').fill(JSON.stringify(body, null, 2));
}

/** Clicks Execute and returns the status and body Swagger UI shows for the live response. */
async function execute(
  block: Locator,
  path: string,
): Promise<{ status: string; body: string; response: Response }> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (response) => response.url() === `${origin}${path}` && response.request().method() === 'POST',
    ),
    block.getByRole('button', { name: 'Execute' }).click(),
  ]);
  const live = block.locator('.live-responses-table .response');
  const status = (await live.locator('.response-col_status').first().textContent())?.trim() ?? '';
  const body =
    (await live.locator('.response-col_description .microlight').first().textContent()) ?? '';
  return { status, body, response };
}

describe.skipIf(SKIPPED)('the interactive docs in chromium', () => {
  it('registers, authorizes and summarises the recorded video through Swagger UI without leaving the host', async () => {
    const id = randomUUID().slice(0, 8);
    let accessToken = '';
    const user = {
      username: `docs_${id}`,
      email: `docs_${id}@example.com`,
      password: `Corr3ct-horse-battery-${id}`,
    };

    await step('open /docs', async () => {
      const response = await page.goto(`${origin}/docs`);
      expect(response?.status()).toBe(200);
      await page.locator('.info .title').filter({ hasText: 'tubesum' }).waitFor();
      await operation('/register').waitFor();
      await operation('/summarize').waitFor();
    });

    await step('register through "Try it out"', async () => {
      const block = operation('/register');
      await fillTryItOut(block, user);
      const { status, body } = await execute(block, '/register');
      expect(status).toBe('201');
      expect(JSON.parse(body)).toMatchObject({ username: user.username });
    });

    await step('/token offers a log-in body as its example', async () => {
      const block = operation('/token');
      const example = (await openTryItOut(block)) as object;
      expect(Object.keys(example)).toEqual(expect.arrayContaining(['username', 'password']));
      await collapse(block);
    });

    await step('log in with "Authorize" (OAuth2 password flow)', async () => {
      await page.locator('.auth-wrapper button.authorize').click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      await dialog.waitFor();
      // The log-in comes first, asking only for what /token takes: no client id or secret.
      await expect(dialog.locator('.auth-container').first().textContent()).resolves.toContain(
        'OAuth2, password',
      );
      // Found by its heading: once authorized, the username field becomes plain text.
      const oauth = dialog.locator('.auth-container').filter({ hasText: 'OAuth2, password' });
      await oauth.locator('#oauth_username').waitFor();
      for (const field of [
        '#client_id_password',
        '#client_secret_password',
        '#client_type_password',
      ]) {
        await expect(oauth.locator(field).isVisible(), field).resolves.toBe(false);
      }
      await oauth.locator('#oauth_username').fill(user.username);
      // A wrong password first: the dialog shows our problem's detail, not just "Unauthorized"
      // (Swagger UI reads the OAuth2 error_description the /token problems carry).
      await oauth.locator('#oauth_password').fill('not-the-password');
      const [refused] = await Promise.all([
        page.waitForResponse((response) => response.url().startsWith(`${origin}/token`)),
        oauth.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click(),
      ]);
      expect(refused.status()).toBe(401);
      await oauth
        .locator('.errors')
        .filter({ hasText: 'Incorrect username, email or password.' })
        .waitFor();
      await oauth.locator('#oauth_password').fill(user.password);
      // Swagger UI labels this button "Apply given OAuth2 credentials" (it reads "Authorize").
      const [tokenResponse] = await Promise.all([
        page.waitForResponse((response) => response.url().startsWith(`${origin}/token`)),
        oauth.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click(),
      ]);
      expect(tokenResponse.status(), await tokenResponse.text()).toBe(200);
      accessToken = (await tokenResponse.json()).access_token;
      // Swagger UI swaps the form for "Logout" once it holds a token.
      await oauth.getByRole('button', { name: 'Remove authorization' }).waitFor();
      // Exactly: the dialog's × button is "Close dialog".
      await oauth.getByRole('button', { name: 'Close', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.locator('.auth-wrapper button.authorize.locked').waitFor();
    });

    await step('summarise with the example body Swagger UI fills in, as it is', async () => {
      const block = operation('/summarize');
      const example = await openTryItOut(block);
      expect(example).toMatchObject({ video_url: expect.stringContaining(FAKE_VIDEO_IDS.normal) });
      const { status, body } = await execute(block, '/summarize');
      expect(status, body).toBe('200');
      await collapse(block);
    });

    await step('summarise the recorded video through "Try it out"', async () => {
      const block = operation('/summarize');
      await fillTryItOut(block, {
        video_url: `https://www.youtube.com/watch?v=${FAKE_VIDEO_IDS.normal}`,
        summary_length: 60,
        used_model: 'extractive',
      });
      const { status, body, response } = await execute(block, '/summarize');
      expect(status, body).toBe('200');
      // Sent with the token Swagger UI got from /token.
      expect(accessToken).not.toBe('');
      await expect(response.request().headerValue('authorization')).resolves.toBe(
        `Bearer ${accessToken}`,
      );
      const summary = JSON.parse(body);
      expect(summary.summary).toMatch(/^Hey, this is just a test/);
      expect(summary.word_count).toBeGreaterThan(0);
      expect(summary.metadata).toMatchObject({
        video_id: FAKE_VIDEO_IDS.normal,
        title: VIDEO_TITLE,
        model: 'extractive',
      });
      await block.locator('.live-responses-table').getByText(VIDEO_TITLE).first().waitFor();
    });

    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    expect(watched.requests).toEqual(
      expect.arrayContaining([
        `GET ${origin}/openapi.json`,
        `POST ${origin}/register`,
        `POST ${origin}/token`,
        `POST ${origin}/summarize`,
      ]),
    );
    // The page has its icon inline, which its CSP lets the browser load (img-src data:), so the
    // browser does not ask for a /favicon.ico the API does not have.
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toMatch(/^data:image\/svg\+xml,/);
    // A string, since this runs in the page (the test's types have no DOM).
    const iconLoads = `new Promise((resolve) => {
      const image = new Image();
      image.onload = () => resolve(image.naturalWidth > 0);
      image.onerror = () => resolve(false);
      image.src = ${JSON.stringify(icon)};
    })`;
    await expect(page.evaluate(iconLoads)).resolves.toBe(true);
    // Both at once, so a failure shows every foreign request and every CSP violation.
    expect({ foreign: [...watched.foreign], pageErrors: watched.pageErrors }).toEqual({
      foreign: [],
      pageErrors: [],
    });
  });

  // axe-core's rules as the page's test applies them; each state in a context of its own, so the
  // colour scheme is the system's from the first paint, as a visitor's would be.
  it('passes axe, fits a 390 px phone and follows the dark mode, with an operation open', async () => {
    for (const width of [390, 1280]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const state = `${width} px, ${colorScheme}`;
        const seen = await watchedPage(browser, origin, {
          viewport: { width, height: 844 },
          colorScheme,
        });
        seen.page.setDefaultTimeout(UI_TIMEOUT);
        const { page: docs } = seen;
        await docs.goto(`${origin}/docs`);
        const block = docs.locator('.opblock.opblock-post').filter({
          has: docs.locator('.opblock-summary-path[data-path="/register"]'),
        });
        await block.locator('.opblock-summary-control').click();
        await block.locator('textarea.body-param__text').waitFor();
        // Deep linking still works with the path shown as text: the open operation is in the URL.
        expect(docs.url(), state).toContain('#/Accounts/register');

        const results = await new AxeBuilder({ page: docs }).analyze();
        const serious = results.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${violation.id} (${violation.nodes.length} nodes)`);
        expect(serious, state).toEqual([]);

        // No sideways scrolling, and Swagger UI's dark theme when the system is dark.
        const [scrollWidth, clientWidth] = (await docs.evaluate(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        )) as [number, number];
        expect(scrollWidth, state).toBeLessThanOrEqual(clientWidth);
        const background = await docs.evaluate(
          'getComputedStyle(document.documentElement).backgroundColor',
        );
        expect(background, state).toBe(
          colorScheme === 'dark' ? 'rgb(28, 32, 34)' : 'rgba(0, 0, 0, 0)',
        );
        expect({ foreign: [...seen.foreign], pageErrors: seen.pageErrors }, state).toEqual({
          foreign: [],
          pageErrors: [],
        });
        await seen.context.close();
      }
    }
  }, 600_000);
});
