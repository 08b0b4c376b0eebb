// The page's states a designer looked at (issue 38), in a real browser against the local host:
// one error at a time, cleared when the person moves on; every message a sentence saying what to
// do; the bad-link error one calm line; history entries that tell two summaries of one video
// apart; the open summary and question in the address, brought back by a reload, Back and a
// shared link; API keys and Connected apps opened the same way; the footer's spacing. axe-core
// finds no violation in any of these states, at 390 and 1280 px, light and dark.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
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
import { buildLongTranscript, toCaptionXml } from '../support/transcripts';

const SKIPPED = skipWithoutChromium('the page’s states');
const FAILURE_SCREENSHOT = resolve(RESULTS_DIR, 'page-states-failure.png');
const VIDEO_URL = `https://youtu.be/${FAKE_VIDEO_IDS.normal}`;
const UI_TIMEOUT = 45_000;
/** A question the offline answer finds words for in the transcript. */
const QUESTION = 'What do kernel convolutions find?';
/** A message as the page writes every one: a capital, words, a full stop at the end. */
const SENTENCE = /^[A-Z“"][^\n]*[.?!]$/;

let env: SummarizeEnv;
let browser: Browser;
let origin: string;
const contexts: Watched[] = [];

beforeAll(async () => {
  if (SKIPPED) return;
  browser = await launchChromium();
  env = await startSummarizeEnv();
  env.youtube.setEnglishTrack(toCaptionXml(buildLongTranscript(1_500).segments));
  origin = new URL(env.host.url).origin;
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

/** Every axe-core violation, light and dark, at 1280 and 390 px; the page left at 1280, light. */
async function violationsEverywhere(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const results = await new AxeBuilder({ page }).analyze();
      for (const violation of results.violations) {
        const nodes = violation.nodes.map((node) => node.target.join(' ')).join(', ');
        found.push(`${width} px ${colorScheme}: ${violation.id} (${nodes})`);
      }
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** The error messages the page shows now (each field's and each form's). */
const shownErrors = (page: Page) =>
  page
    .locator('.error')
    .evaluateAll((all) =>
      all.map((element) => element.textContent ?? '').filter((text) => text.trim() !== ''),
    );

const form = (page: Page, name: string) => page.getByRole('form', { name });

describe.skipIf(SKIPPED)('the page’s states in chromium', () => {
  const id = randomUUID().slice(0, 8);
  const user = {
    username: `states_${id}`,
    email: `states_${id}@example.com`,
    password: `Corr3ct-horse-battery-${id}`,
  };

  it('shows one error at a time, as a sentence, and takes it away when the person moves on', async () => {
    const watched = await open();
    const { page } = watched;
    const step = stepper(watched);
    await page.goto(`${origin}/`);
    const signIn = form(page, 'Sign in');
    const create = form(page, 'Create account');

    await step('a wrong sign-in is told by the password, in a sentence', async () => {
      await signIn.getByLabel('Username or email').fill('nobody_here');
      await signIn.getByLabel('Password').fill('not-the-password');
      await signIn.getByRole('button', { name: 'Sign in' }).click();
      await signIn.getByText('Incorrect username, email or password.').waitFor();
      expect(await shownErrors(page)).toEqual(['Incorrect username, email or password.']);
      expect(await violationsEverywhere(page)).toEqual([]);
    });

    await step('turning to Create account takes the sign-in error away', async () => {
      await create.getByLabel('Username').click();
      await expect.poll(() => shownErrors(page)).toEqual([]);
      await expect(signIn.getByLabel('Password').getAttribute('aria-invalid')).resolves.toBe(
        'false',
      );
    });

    await step('editing the field takes the error away too', async () => {
      await signIn.getByRole('button', { name: 'Sign in' }).click();
      await signIn.getByText('Incorrect username, email or password.').waitFor();
      await signIn.getByLabel('Password').fill('another-try');
      await expect.poll(() => shownErrors(page)).toEqual([]);
    });

    await step('three wrong fields: one error, a sentence saying what to do', async () => {
      await create.getByLabel('Username').fill('ok_name');
      await create.getByLabel('Email').fill('not-an-email');
      await create.getByLabel('Password').fill('short');
      await create.getByRole('button', { name: 'Create account' }).click();
      await expect.poll(() => shownErrors(page)).toHaveLength(1);
      const [message] = await shownErrors(page);
      expect(message).toMatch(SENTENCE);
      expect(message).toMatch(/^Use /);
      expect(await violationsEverywhere(page)).toEqual([]);
      await create.getByLabel('Email').fill(user.email);
      await create.getByRole('button', { name: 'Create account' }).click();
      await expect
        .poll(() => shownErrors(page))
        .toEqual(['Use at least 8 characters for the password.']);
    });

    await step('the footer stands as far from the cards as they do from each other', async () => {
      expect(await footerGap(page)).toBeGreaterThanOrEqual(16);
    });
  });

  it('keeps the open summary and question in the address, and tells summaries apart', async () => {
    const watched = await open();
    const { page } = watched;
    const step = stepper(watched);
    await page.goto(`${origin}/`);
    const create = form(page, 'Create account');
    await create.getByLabel('Username').fill(user.username);
    await create.getByLabel('Email').fill(user.email);
    await create.getByLabel('Password').fill(user.password);
    await create.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const summarize = form(page, 'Summarize a video');
    const history = page.getByRole('region', { name: 'Your summaries' });

    await step('the bad-link error is one calm line saying what to paste', async () => {
      await summarize.getByLabel('Video URL').fill('https://example.com/watch?v=abc');
      await summarize.getByRole('button', { name: 'Summarize' }).click();
      const error = page.locator('#video-url-error');
      await error.waitFor();
      await expect(error.textContent()).resolves.toMatch(SENTENCE);
      const look = await page.evaluate<{ lines: number; weight: number }>(`(() => {
        const element = document.getElementById('video-url-error');
        const style = getComputedStyle(element);
        return {
          lines: element.getBoundingClientRect().height / Number.parseFloat(style.lineHeight),
          weight: Number(style.fontWeight),
        };
      })()`);
      expect(look.lines).toBeLessThan(1.5);
      expect(look.weight).toBeLessThan(600);
      expect(await shownErrors(page)).toHaveLength(1);
      expect(await violationsEverywhere(page)).toEqual([]);
      // Editing the link takes it away.
      await summarize.getByLabel('Video URL').fill(VIDEO_URL);
      await expect.poll(() => shownErrors(page)).toEqual([]);
    });

    /** Summarizes the video at this length; its id once the address names it, and its byline. */
    const summaryOf = async (words: string, before?: string) => {
      await summarize.getByLabel('Model').selectOption('extractive');
      await summarize.getByLabel('Length (words)').fill(words);
      await summarize.getByRole('button', { name: 'Summarize' }).click();
      const opened = () => new URL(page.url()).searchParams.get('summary');
      await expect.poll(opened, { timeout: UI_TIMEOUT }).toMatch(/\w/);
      await expect.poll(opened, { timeout: UI_TIMEOUT }).not.toBe(before ?? null);
      await page.getByRole('article').waitFor();
      return { id: opened() ?? '', byline: await byline(page) };
    };

    const first = await step('summarize the video in 100 words: its id in the address', () =>
      summaryOf('100'),
    );
    const second = await step('and again in 150 words: another entry, another address', () =>
      summaryOf('150', first.id),
    );
    expect(second.byline).not.toBe(first.byline);

    await step('the history tells the two apart: model, length and when', async () => {
      const entries = history.getByRole('listitem');
      await expect.poll(() => entries.count()).toBe(2);
      const texts = await entries.allTextContents();
      expect(texts[0]).toMatch(/done · extractive · 150 words/);
      expect(texts[1]).toMatch(/done · extractive · 100 words/);
      expect(await violationsEverywhere(page)).toEqual([]);
    });

    await step('Back brings the first summary again, Forward the second', async () => {
      await page.goBack();
      await expect.poll(() => new URL(page.url()).searchParams.get('summary')).toBe(first.id);
      await expect.poll(() => byline(page)).toBe(first.byline);
      await page.goForward();
      await expect.poll(() => new URL(page.url()).searchParams.get('summary')).toBe(second.id);
      await expect.poll(() => byline(page)).toBe(second.byline);
    });

    await step('a question asked goes into the address; a reload asks it again', async () => {
      const ask = page.getByRole('region', { name: 'Ask about this video' });
      await ask.getByLabel('Question').fill(QUESTION);
      await ask.getByRole('button', { name: 'Ask' }).click();
      await ask.getByRole('heading', { name: 'Answer' }).waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.get('question')).toBe(QUESTION);
      await page.reload();
      await page.getByRole('article').waitFor();
      await expect.poll(() => byline(page)).toBe(second.byline);
      const again = page.getByRole('region', { name: 'Ask about this video' });
      await again.getByRole('heading', { name: 'Answer' }).waitFor();
      await expect(again.locator('.answer .byline').textContent()).resolves.toContain(QUESTION);
      expect(await violationsEverywhere(page)).toEqual([]);
    });

    await step('a shared link opens the summary after signing in', async () => {
      const shared = page.url();
      const other = await open();
      await other.page.goto(shared);
      const signIn = form(other.page, 'Sign in');
      await signIn.getByLabel('Username or email').fill(user.username);
      await signIn.getByLabel('Password').fill(user.password);
      await signIn.getByRole('button', { name: 'Sign in' }).click();
      await other.page.getByRole('article').waitFor();
      await expect.poll(() => byline(other.page)).toBe(second.byline);
    });

    await step('API keys and Connected apps open and close the same way', async () => {
      for (const [region, what] of [
        ['API keys', 'API keys'],
        ['Connected apps', 'connected apps'],
      ]) {
        const panel = page.getByRole('region', { name: region });
        const toggle = panel.getByRole('button', { name: `Show ${what}` });
        await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
        await toggle.click();
        await panel.getByRole('button', { name: `Hide ${what}` }).waitFor();
        await panel.getByText(/^None/).waitFor();
      }
      expect(await violationsEverywhere(page)).toEqual([]);
    });

    await step('the footer stands as far from the cards as they do from each other', async () => {
      expect(await footerGap(page)).toBeGreaterThanOrEqual(16);
    });
  });

  it('logged no error in the page', () => {
    expect(contexts.map((watched) => watched.pageErrors)).toEqual(contexts.map(() => []));
    expect(contexts.map((watched) => [...watched.foreign])).toEqual(contexts.map(() => []));
  });
});

async function open(): Promise<Watched> {
  const watched = await watchedPage(browser, origin, { viewport: { width: 1280, height: 900 } });
  watched.page.setDefaultTimeout(UI_TIMEOUT);
  contexts.push(watched);
  return watched;
}

function stepper(watched: Watched) {
  return <T>(name: string, run: () => Promise<T>) =>
    watchedStep(watched, FAILURE_SCREENSHOT, name, run);
}

/** The open summary's byline (channel, word count, model): two summaries' differ. */
const byline = (page: Page) => page.locator('article .byline').textContent();

/** The space between the last card of the page and the footer's link, in CSS pixels. */
function footerGap(page: Page): Promise<number> {
  return page.evaluate<number>(`(() => {
    const link = document.querySelector('footer a');
    const above = [...document.querySelectorAll('main .card')].at(-1);
    if (!link || !above) return -1;
    return link.getBoundingClientRect().top - above.getBoundingClientRect().bottom;
  })()`);
}
