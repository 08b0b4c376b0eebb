// The page for people at `/`, in a real browser: Debian's chromium (driven by playwright-core)
// against the local host (DynamoDB Local, recorded YouTube, a model stub as slow as a laptop's),
// used as a person would, by the accessible names of its fields and buttons: create an account,
// sign out and in, summarise a long video and watch the progress bar move, read the key points,
// ask a question about the video and follow its citations, copy the summary as Markdown, make an
// API key that expires in 30 days (shown once, working, listed with its expiry) and delete it,
// see an expired key listed as expired, cancel a running summary, reload and open
// a summary from the history, be sent back to Sign in when the token is refused (keeping the
// pasted link), and do it on a 390 px phone with the keyboard alone; then delete an account,
// which asks for its password first. axe-core checks the page in light and dark mode. Nothing
// may leave the local host, and the page may log no error.

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../web/times';
import { expireApiKey, userIdOf } from '../support/api-keys';
import {
  launchChromium,
  RESULTS_DIR,
  skipWithoutChromium,
  type Watched,
  watchedPage,
  step as watchedStep,
} from '../support/browser';
import { FAKE_VIDEO_IDS } from '../support/fake-youtube';
import {
  contentsOf,
  oneLine,
  renderMarkdown,
  tagsOf,
  targetsOf,
  visibleText,
} from '../support/markdown';
import { OPENAI_MODEL_NAME, type SummarizeEnv, startSummarizeEnv } from '../support/summarize-env';
import { buildLongTranscript, plainWords, toCaptionXml } from '../support/transcripts';

const SKIPPED = skipWithoutChromium('the page at /');
const DESKTOP_SCREENSHOT = resolve(RESULTS_DIR, 'page-desktop.png');
const PHONE_SCREENSHOT = resolve(RESULTS_DIR, 'page-phone.png');
const FAILURE_SCREENSHOT = resolve(RESULTS_DIR, 'page-e2e-failure.png');
const VIDEO_ID = FAKE_VIDEO_IDS.normal;
const VIDEO_URL = `https://www.youtube.com/watch?v=${VIDEO_ID}`;
const VIDEO_TITLE = 'Surface Go Review - It’s Awesome';
/** A question the transcript answers (offline: the passages about kernels and edges). */
const QUESTION = 'How do kernel convolutions find edges, like the Sobel operator?';
/** A laptop's model: every call takes this long, one at a time. */
const CALL_MS = 1_000;
/** The call that combines the four parts' summaries: long enough to be seen (a 3-hour talk's took 12 s). */
const COMBINE_MS = 4_000;
/** What an uploader can put in a title: a link, HTML and, after a line break, a heading. */
const HOSTILE_TITLE = 'Evil](javascript:alert(1)) <img src=x onerror=alert(1)>\n# Owned';
/** Long enough for a cold bcrypt hash and a slow summary on a loaded two-core machine. */
const UI_TIMEOUT = 45_000;
/** An hour of talk: the captions the fake YouTube serves for the video. */
const CAPTIONS = buildLongTranscript(10_000).segments;

let env: SummarizeEnv;
let browser: Browser;
let origin: string;
/** Every watched context of the test, checked together at the end. */
const contexts: Watched[] = [];

beforeAll(async () => {
  if (SKIPPED) return;
  browser = await launchChromium();
  env = await startSummarizeEnv({
    // An hour of talk in an 8k window: four parts and a combination, a second each.
    OPENAI_MODELS: `${OPENAI_MODEL_NAME}@8192`,
    OPENAI_CONCURRENCY: '1',
  });
  env.youtube.setEnglishTrack(toCaptionXml(CAPTIONS));
  env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: CALL_MS }]);
  origin = new URL(env.host.url).origin;
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

async function open(options: Parameters<typeof watchedPage>[2]): Promise<Watched> {
  const watched = await watchedPage(browser, origin, options);
  watched.page.setDefaultTimeout(UI_TIMEOUT);
  contexts.push(watched);
  return watched;
}

/** The form (or region) a heading names, e.g. "Sign in". */
const form = (page: Page, name: string) => page.getByRole('form', { name });

/** axe-core's serious and critical violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}

/** Waits until the field labelled `label` is invalid and tells why, in words matching `pattern`. */
async function expectFieldError(page: Page, label: string, pattern: RegExp): Promise<void> {
  // Exactly: a form named by a sentence about its password is not its Password field.
  const field = page.getByLabel(label, { exact: true });
  const told = async () => {
    if ((await field.getAttribute('aria-invalid')) !== 'true') return '';
    const ids = (await field.getAttribute('aria-describedby')) ?? '';
    const error = ids.split(' ').find((id) => id.endsWith('-error'));
    return error ? ((await page.locator(`#${error}`).textContent()) ?? '') : '';
  };
  await expect.poll(told, { timeout: UI_TIMEOUT }).toMatch(pattern);
}

/** Presses Tab until the element with this id has the focus (a keyboard user's way there). */
async function tabTo(page: Page, id: string): Promise<void> {
  for (let presses = 0; presses < 30; presses++) {
    if ((await page.evaluate('document.activeElement && document.activeElement.id')) === id) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached #${id}`);
}

/** The id of the element that has the focus. */
const focused = (page: Page) =>
  page.evaluate('document.activeElement && document.activeElement.id');

/** Whether an element is wholly within the window, nothing of it scrolled out of sight. */
async function inView(page: Page, locator: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await locator.boundingBox();
  const window = page.viewportSize();
  return (
    box !== null &&
    window !== null &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + box.height <= window.height &&
    box.x + box.width <= window.width
  );
}

/** The newest summary of the video in the history (cancelled jobs are named by its title too). */
const doneEntry = (page: Page) =>
  page
    .getByRole('region', { name: 'Your summaries' })
    .getByRole('listitem')
    .filter({ hasText: 'done ·' })
    .getByRole('button', { name: VIDEO_TITLE })
    .first();

/** The history's list (GET /summaries), not one job (GET /summaries/{id}). */
const HISTORY_LIST = (url: URL) => url.pathname.endsWith('/summaries');

/** One state of the progress bar (read at once, so all three are of the same moment). */
interface BarState {
  now: number;
  text: string;
  /** Its stripes moving. */
  moving: boolean;
}

/**
 * Records, in the page, each state the progress bar takes from now on, as the page changes it
 * (a MutationObserver): read them with `barStates`. Looking at the bar every so often instead
 * slept between looks, and could miss a state a busy machine showed only briefly.
 */
const recordBarStates = (page: Page): Promise<void> =>
  page.evaluate(`(() => {
    const states = (window.barStates = []);
    const record = () => {
      const bar = document.querySelector('[role=progressbar]');
      if (!bar) return;
      const state = {
        now: Number(bar.getAttribute('aria-valuenow')),
        text: bar.getAttribute('aria-valuetext') ?? '',
        moving: bar.getAnimations().some((animation) => animation.playState === 'running'),
      };
      const last = states.at(-1);
      if (last?.now !== state.now || last?.text !== state.text) states.push(state);
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow', 'aria-valuetext'],
    });
    record();
  })()`);

/** The states `recordBarStates` recorded so far, in order. */
const barStates = (page: Page): Promise<BarState[]> =>
  page.evaluate<BarState[]>('window.barStates ?? []');

/** Whether `secret` is anywhere in the page: its markup, its fields' values, its storage. */
const pageHolds = (page: Page, secret: string) =>
  page.evaluate(`(() => {
    const secret = ${JSON.stringify(secret)};
    const fields = [...document.querySelectorAll('input, textarea')].map((field) => field.value);
    const stored = [localStorage, sessionStorage].flatMap((storage) =>
      Object.keys(storage).map((name) => storage.getItem(name)),
    );
    return [document.documentElement.outerHTML, ...fields, ...stored].some((text) =>
      String(text).includes(secret),
    );
  })()`);

/**
 * Whether the page is wider than its window (sideways scrolling). Against the layout viewport
 * (clientWidth): a phone's browser zooms out to show content too wide, which widens innerWidth
 * with it (a 1,000 px line passed the innerWidth comparison).
 */
const scrollsSideways = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth');

describe.skipIf(SKIPPED)('the page at / in chromium', () => {
  const id = randomUUID().slice(0, 8);
  const user = {
    username: `page_${id}`,
    email: `page_${id}@example.com`,
    password: `Corr3ct-horse-battery-${id}`,
  };

  it('lets a person sign up, summarise, cancel and find a summary again, without leaving the host', async () => {
    const desktop = await open({ viewport: { width: 1280, height: 900 } });
    const { page } = desktop;
    const step = <T>(name: string, run: () => Promise<T>) =>
      watchedStep(desktop, FAILURE_SCREENSHOT, name, run);
    await desktop.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });

    await step('open / and find a titled English page with a strict CSP', async () => {
      const response = await page.goto(`${origin}/`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      await expect(page.title()).resolves.toMatch(/tubesum/);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
      await form(page, 'Sign in').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });

    await step('create an account, which signs in', async () => {
      const create = form(page, 'Create account');
      await create.getByLabel('Username').fill(user.username);
      await create.getByLabel('Email').fill(user.email);
      await create.getByLabel('Password').fill(user.password);
      await create.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await expect(page.getByText(`Signed in as ${user.username}`).count()).resolves.toBe(1);
    });

    await step(
      'sign out, then sign in: a wrong password is told by the password field',
      async () => {
        await page.getByRole('button', { name: 'Sign out' }).click();
        const signIn = form(page, 'Sign in');
        await signIn.getByLabel('Username or email').fill(user.email);
        await signIn.getByLabel('Password').fill('not-the-password');
        await signIn.getByRole('button', { name: 'Sign in' }).click();
        const password = signIn.getByLabel('Password');
        await signIn.getByText('Incorrect username, email or password.').waitFor();
        await expect(password.getAttribute('aria-invalid')).resolves.toBe('true');
        await password.fill(user.password);
        await signIn.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
      },
    );

    await step('a link that is not YouTube is refused next to the Video URL field', async () => {
      await page.getByLabel('Video URL').fill('https://example.com/watch?v=abc');
      await page.getByRole('button', { name: 'Summarize' }).click();
      await expectFieldError(page, 'Video URL', /youtube/i);
    });

    await step('no captions, and YouTube refusing this server, are told in words', async () => {
      await page.getByLabel('Model').selectOption('extractive');
      await page.getByLabel('Video URL').fill(`https://youtu.be/${FAKE_VIDEO_IDS.disabled}`);
      await page.getByRole('button', { name: 'Summarize' }).click();
      await expectFieldError(page, 'Video URL', /caption/i);
      const field = page.getByLabel('Video URL');

      await page.getByLabel('Video URL').fill(`https://youtu.be/${FAKE_VIDEO_IDS.blocked}`);
      await page.getByRole('button', { name: 'Summarize' }).click();
      const alert = page
        .getByRole('form', { name: 'Summarize a video' })
        .getByRole('alert')
        .filter({ hasText: /YouTube/ });
      await alert.waitFor();
      // Words, never the problem's JSON.
      await expect(alert.textContent()).resolves.not.toMatch(/[{}]|urn:/);
      await expect(field.getAttribute('aria-invalid')).resolves.toBe('false');
    });

    await step(
      'summarise with the slow model: the bar moves part by part, and the combining step is named and moving',
      async () => {
        // Four parts, then a long combining call, then laptop-speed calls again.
        const parts = Array.from({ length: 4 }, () => ({ delayMs: CALL_MS }));
        env.openai.script(OPENAI_MODEL_NAME, [
          ...parts,
          { delayMs: COMBINE_MS },
          { delayMs: CALL_MS },
        ]);
        await page.getByLabel('Video URL').fill(VIDEO_URL);
        await page.getByLabel('Length (words)').fill('150');
        await page.getByLabel('Model').selectOption(OPENAI_MODEL_NAME);
        await recordBarStates(page);
        await page.getByRole('button', { name: 'Summarize' }).click();
        await page.getByRole('progressbar').waitFor();
        // The bar's states until the summary (not the job's card, named by the video's title
        // too once known) replaces it: some 10 s of model calls, given ample time on a busy
        // machine.
        await page.getByRole('article', { name: VIDEO_TITLE }).waitFor({ timeout: 2 * UI_TIMEOUT });
        const states = await barStates(page);
        const progress = states
          .map((seen) => seen.now)
          .filter((now, i, all) => i === 0 || all[i - 1] !== now);
        const combining = states.filter((seen) => seen.text.startsWith('Combining'));
        // It rose through the parts, never went back, and stayed within 0-100.
        expect(progress.length, JSON.stringify(progress)).toBeGreaterThanOrEqual(3);
        expect([...progress].sort((a, b) => a - b)).toEqual(progress);
        expect(Math.min(...progress)).toBeGreaterThanOrEqual(0);
        expect(Math.max(...progress)).toBeLessThanOrEqual(100);
        // The combining step says what it does, in words, and its bar is not frozen.
        expect(combining.length).toBeGreaterThan(0);
        expect(new Set(combining.map((seen) => seen.text))).toEqual(
          new Set(['Combining 4 part summaries into one…']),
        );
        expect(combining.every((seen) => seen.moving)).toBe(true);
      },
    );

    await step('read the summary, its channel and word count, and its key points', async () => {
      const article = page.getByRole('article', { name: VIDEO_TITLE });
      await expect(article.textContent()).resolves.toMatch(/\d+ words/);
      const links = article.getByRole('list').getByRole('link');
      expect(await links.count()).toBeGreaterThan(0);
      for (const link of await links.all()) {
        await expect(link.getAttribute('href')).resolves.toMatch(
          new RegExp(`^https://www\\.youtube\\.com/watch\\?v=${VIDEO_ID}&t=\\d+s$`),
        );
        await expect(link.getAttribute('target')).resolves.toBe('_blank');
        await expect(link.getAttribute('rel')).resolves.toContain('noopener');
      }
      expect(await seriousViolations(page)).toEqual([]);
      mkdirSync(RESULTS_DIR, { recursive: true });
      await page.screenshot({ path: DESKTOP_SCREENSHOT, fullPage: true });
    });

    await step(
      'ask a question under the summary: the answer links each moment it cites',
      async () => {
        const ask = page.getByRole('region', { name: 'Ask about this video' });
        // Nothing asked: the API's refusal is told by the Question field, which keeps the focus.
        await ask.getByRole('button', { name: 'Ask' }).click();
        await expectFieldError(page, 'Question', /^Write a question\.$/);
        await expect.poll(() => focused(page)).toBe('question');

        await ask.getByLabel('Model').selectOption('extractive');
        await ask.getByLabel('Question').fill(QUESTION);
        const [asked] = await Promise.all([
          page.waitForResponse((response) => response.url().endsWith('/ask')),
          ask.getByRole('button', { name: 'Ask' }).click(),
        ]);
        expect(asked.status()).toBe(200);
        await ask.getByRole('heading', { name: 'Answer', level: 3 }).waitFor();
        // The answer takes the focus, as a new summary does.
        await expect.poll(() => focused(page)).toBe('answer-title');
        const links = ask.getByRole('list', { name: 'Moments the answer cites' }).getByRole('link');
        expect(await links.count()).toBeGreaterThan(0);
        for (const link of await links.all()) {
          const href = (await link.getAttribute('href')) ?? '';
          const [, shown = '', quoted = ''] =
            /^(\S+) (.*)$/s.exec((await link.textContent()) ?? '') ?? [];
          const seconds = Number(
            new RegExp(`^https://www\\.youtube\\.com/watch\\?v=${VIDEO_ID}&t=(\\d+)s$`).exec(
              href,
            )?.[1],
          );
          // The moment is a caption that starts at t= and says what the citation quotes.
          const caption = CAPTIONS.find(
            (segment) =>
              Math.floor(segment.offsetMs / 1000) === seconds &&
              plainWords(quoted).startsWith(plainWords(segment.text)),
          );
          expect(caption, `${href}: ${quoted.slice(0, 80)}`).toBeDefined();
          expect(shown).toBe(clock(seconds));
          await expect(link.getAttribute('target')).resolves.toBe('_blank');
          await expect(link.getAttribute('rel')).resolves.toContain('noopener');
        }
        expect(await seriousViolations(page)).toEqual([]);
      },
    );

    await step('read its chapters: each a link to its moment, with what it says', async () => {
      const article = page.getByRole('article', { name: VIDEO_TITLE });
      await article.getByRole('heading', { name: 'Chapters', level: 3 }).waitFor();
      const chapters = article.getByRole('list', { name: 'Chapters' }).getByRole('listitem');
      // An hour of talk: about one chapter per 4-8 minutes.
      expect(await chapters.count()).toBeGreaterThanOrEqual(7);
      expect(await chapters.count()).toBeLessThanOrEqual(16);
      const starts: number[] = [];
      for (const chapter of await chapters.all()) {
        const link = chapter.getByRole('link');
        const href = (await link.getAttribute('href')) ?? '';
        const seconds = Number(
          new RegExp(`^https://www\\.youtube\\.com/watch\\?v=${VIDEO_ID}&t=(\\d+)s$`).exec(
            href,
          )?.[1],
        );
        // The link shows the chapter's start, then its title; what it says follows.
        const [, shown = '', title = ''] =
          /^(\S+) (.+)$/s.exec((await link.textContent()) ?? '') ?? [];
        expect(shown).toBe(clock(seconds));
        expect(title.trim()).not.toBe('');
        await expect(link.getAttribute('target')).resolves.toBe('_blank');
        const said = (await chapter.getByRole('paragraph').textContent()) ?? '';
        expect(said.split(/\s+/).filter(Boolean).length).toBeGreaterThanOrEqual(5);
        starts.push(seconds);
      }
      expect(starts[0]).toBe(0);
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    });

    await step('copy it as Markdown, chapter and key point links included', async () => {
      await page.getByRole('button', { name: 'Copy as Markdown' }).click();
      await page.getByText('Copied as Markdown.').waitFor();
      const markdown = String(await page.evaluate('navigator.clipboard.readText()'));
      const firstLink = await page
        .getByRole('article', { name: VIDEO_TITLE })
        .getByRole('list')
        .getByRole('link')
        .first()
        .getAttribute('href');
      expect(markdown).toContain(`# [${VIDEO_TITLE}]`);
      expect(markdown).toContain('## Key points');
      expect(markdown).toContain(`](${firstLink})`);
      // Each chapter as `- [m:ss Title](url): what it says`, in the order the page shows them.
      const chapters = page
        .getByRole('article', { name: VIDEO_TITLE })
        .getByRole('list', { name: 'Chapters' })
        .getByRole('listitem');
      expect(markdown).toContain('## Chapters');
      const lines = markdown.split('\n').filter((line) => /^- \[\d+:\d{2}(?::\d{2})? /.test(line));
      expect(lines).toHaveLength(await chapters.count());
      const first = chapters.first();
      const said = (await first.getByRole('paragraph').textContent()) ?? '';
      // Markdown escapes the brackets a title may hold.
      expect(lines[0]?.replace(/\\(.)/g, '$1')).toBe(
        `- [${(await first.getByRole('link').textContent())?.trim()}](${await first.getByRole('link').getAttribute('href')}): ${said}`,
      );
    });

    await step(
      'a hostile title, summary, chapters and key points are shown and copied as text: no link but YouTube’s',
      async () => {
        // As if an uploader and an injected model had written them: the history's summary is
        // given a title with a link, HTML and a line break, and so on.
        const hostile = {
          title: HOSTILE_TITLE,
          channel: '<script>alert(2)</script>\n- a list',
          summary:
            'See [this](javascript:alert(3)) now.\n\n# Heading\n<img src=x onerror=alert(4)>',
          point: '![pixel](https://evil.example/p.png) `code` www.evil.example',
          chapter: 'Intro](javascript:alert(6)) <b>bold</b>\n## Sub',
          chapterSummary: '<iframe src=x></iframe> [x](https://evil.example) *said*.',
          imageChapter: '![pixel](https://evil.example/c.png) [here](https://evil.example/c)',
          imageChapterSummary:
            '<img src=x onerror=alert(8)> **see** [this](javascript:alert(9)) now.',
        };
        await page.route(HISTORY_LIST, async (route) => {
          const response = await route.fetch();
          const body = await response.json();
          const done = body.items.find((job: { result: unknown }) => job.result);
          done.result.metadata.title = hostile.title;
          done.result.metadata.channel_title = hostile.channel;
          done.result.summary = hostile.summary;
          done.result.key_points[0].text = hostile.point;
          done.result.key_points[1].url = 'javascript:alert(5)';
          done.result.chapters = [
            {
              start_seconds: 0,
              end_seconds: 60,
              title: hostile.chapter,
              summary: hostile.chapterSummary,
              url: 'javascript:alert(7)',
            },
            {
              start_seconds: 60,
              end_seconds: 120,
              title: 'Second part',
              summary: 'What the second part says.',
              url: `https://www.youtube.com/watch?v=${VIDEO_ID}&t=60s`,
            },
            {
              // A link's text that a parser reading it again took for an image and a link.
              start_seconds: 120,
              end_seconds: 180,
              title: hostile.imageChapter,
              summary: hostile.imageChapterSummary,
              url: `https://www.youtube.com/watch?v=${VIDEO_ID}&t=120s`,
            },
          ];
          await route.fulfill({ response, json: body });
        });
        // The page without a summary in its address: one opened from there would be read again
        // (GET /summaries/{id}), and shown in the history as read, not as listed.
        await page.goto(`${origin}/`);
        const history = page.getByRole('region', { name: 'Your summaries' });
        await history.getByRole('button', { name: oneLine(HOSTILE_TITLE) }).click();
        const article = page.getByRole('article', { name: oneLine(HOSTILE_TITLE) });
        await article.waitFor();
        // Text on the page: no image, no script made of it.
        await expect(article.locator('img, script').count()).resolves.toBe(0);
        await article.getByRole('button', { name: 'Copy as Markdown' }).click();
        await article.getByText('Copied as Markdown.').waitFor();
        const markdown = String(await page.evaluate('navigator.clipboard.readText()'));
        await page.unroute(HISTORY_LIST);

        // Pasted where Markdown becomes HTML: the title's heading, then Chapters and Key points
        // with a list each, the texts as written, and links to the video only.
        const html = renderMarkdown(markdown);
        const tags = tagsOf(html);
        expect(new Set(tags), html).toEqual(new Set(['h1', 'a', 'p', 'h2', 'ul', 'li']));
        expect(tags.filter((tag) => tag === 'h1' || tag === 'h2')).toEqual(['h1', 'h2', 'h2']);
        expect(contentsOf(html, 'h2').map(visibleText)).toEqual(['Chapters', 'Key points']);
        expect(contentsOf(html, 'h1').map(visibleText)).toEqual([oneLine(HOSTILE_TITLE)]);
        expect(visibleText(html)).toContain(oneLine(hostile.channel));
        expect(visibleText(html)).toContain(hostile.point);
        expect(visibleText(html)).toContain(oneLine(hostile.chapter));
        expect(visibleText(html)).toContain(hostile.chapterSummary);
        expect(tags.filter((tag) => tag === 'ul')).toHaveLength(2);
        expect(visibleText(html)).toContain(
          `2:00 ${hostile.imageChapter}: ${hostile.imageChapterSummary}`,
        );
        for (const target of targetsOf(html)) {
          expect(target).toMatch(new RegExp(`^https://www\\.youtube\\.com/watch\\?v=${VIDEO_ID}`));
        }
      },
    );

    await step(
      'make an API key that expires in 30 days: shown once, it works, it is listed with its expiry, and deleted it stops; an expired key is listed as expired',
      async () => {
        const keys = page.getByRole('region', { name: 'API keys' });
        const toggle = keys.locator('#keys-toggle');
        await keys.getByRole('button', { name: 'Show API keys' }).click();
        await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
        await keys.getByText('None yet.').waitFor();
        await keys.getByRole('button', { name: 'Create key' }).click();
        await expectFieldError(page, 'Name', /^Fill in this field\.$/);

        await keys.getByLabel('Name').fill('laptop');
        // Expires in: 90 days unless the person chooses otherwise; here, 30 days.
        const lifetime = keys.getByLabel('Expires in');
        await expect(lifetime.locator('option').allTextContents()).resolves.toEqual([
          '30 days',
          '90 days',
          '1 year',
          'Never',
        ]);
        await expect(lifetime.inputValue()).resolves.toBe('90');
        await lifetime.selectOption({ label: '30 days' });
        await keys.getByRole('button', { name: 'Create key' }).click();
        await keys.getByRole('heading', { name: 'Your new key “laptop”' }).waitFor();
        await keys.getByText(/It works until /).waitFor();
        await expect.poll(() => focused(page)).toBe('made-key-title');
        const key = await keys.getByLabel('Key', { exact: true }).inputValue();
        expect(key).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
        await keys.getByRole('button', { name: 'Copy the key' }).click();
        await keys.getByText('Copied.').waitFor();
        await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(key);
        // The MCP configuration names this deployment's endpoint, and Claude Code's the key.
        await expect(keys.locator('pre').first().textContent()).resolves.toBe(
          `claude mcp add --transport http tubesum ${origin}/mcp --header "Authorization: Bearer ${key}"`,
        );
        await expect(keys.locator('pre').nth(1).textContent()).resolves.toContain(
          `"url": "${origin}/mcp"`,
        );
        // Kept in no storage of the browser.
        await expect(
          page.evaluate(`JSON.stringify([{ ...localStorage }, { ...sessionStorage }])`),
        ).resolves.not.toContain(key);
        expect(await seriousViolations(page)).toEqual([]);
        await page.emulateMedia({ colorScheme: 'dark' });
        expect(await seriousViolations(page)).toEqual([]);
        await page.emulateMedia({ colorScheme: 'light' });

        // The key works outside the browser, against the API and its MCP endpoint.
        const summaries = await env.host.request('GET', '/summaries', { token: key });
        expect(summaries.status).toBe(200);
        expect(summaries.body.items.length).toBeGreaterThan(0);
        const mcp = await env.host.request('POST', '/mcp', {
          token: key,
          headers: { accept: 'application/json, text/event-stream' },
          json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        });
        expect(mcp.status).toBe(200);

        // Listed; closing the panel takes the key off the page, and it is never shown again.
        const item = keys.getByRole('listitem').filter({ hasText: 'laptop' });
        await expect(item.textContent()).resolves.toMatch(/never used · expires /);
        const expiresAt = await item.locator('time').last().getAttribute('datetime');
        expect(Date.parse(expiresAt ?? '') - Date.now()).toBeGreaterThan(30 * 86_400_000 - 600_000);
        expect(Date.parse(expiresAt ?? '') - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
        await keys.getByRole('button', { name: 'Hide API keys' }).click();
        await expect(pageHolds(page, key)).resolves.toBe(false);
        await keys.getByRole('button', { name: 'Show API keys' }).click();
        await item.getByText(/last used/).waitFor();
        await expect(pageHolds(page, key)).resolves.toBe(false);

        // Delete asks first; Keep it keeps it.
        await item.getByRole('button', { name: 'Delete laptop' }).click();
        const confirm = item.getByRole('group', { name: /^Delete “laptop”\?/ });
        await confirm.waitFor();
        await expect.poll(() => focused(page)).toMatch(/^keep-/);
        expect(await seriousViolations(page)).toEqual([]);
        await confirm.getByRole('button', { name: 'Keep it' }).click();
        await expect.poll(() => focused(page)).toMatch(/^delete-/);
        expect((await env.host.request('GET', '/summaries', { token: key })).status).toBe(200);

        await item.getByRole('button', { name: 'Delete laptop' }).click();
        await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
        await keys.getByText('Deleted “laptop”: it no longer works.').waitFor();
        await expect(item.count()).resolves.toBe(0);
        await expect.poll(() => focused(page)).toBe('keys-list-title');
        expect((await env.host.request('GET', '/summaries', { token: key })).status).toBe(401);

        // A key that has expired (made by a script, its day moved into the past) is listed as
        // expired, and refused.
        const login = await env.host.request('POST', '/token', {
          json: { username: user.username, password: user.password },
        });
        const token = login.body.access_token;
        const old = (
          await env.host.request('POST', '/api-keys', {
            token,
            json: { name: 'old script', expires_in_days: 1 },
          })
        ).body;
        await expireApiKey(env.host.db, env.host.config.TABLE_NAME, {
          userId: userIdOf(token),
          ...old,
        });
        await keys.getByRole('button', { name: 'Hide API keys' }).click();
        await keys.getByRole('button', { name: 'Show API keys' }).click();
        const expired = keys.getByRole('listitem').filter({ hasText: 'old script' });
        await expect(expired.locator('.when').textContent()).resolves.toMatch(
          /never used · expired /,
        );
        expect(await seriousViolations(page)).toEqual([]);
        await page.emulateMedia({ colorScheme: 'dark' });
        expect(await seriousViolations(page)).toEqual([]);
        await page.emulateMedia({ colorScheme: 'light' });
        expect((await env.host.request('GET', '/summaries', { token: old.key })).status).toBe(401);
        await keys.getByRole('button', { name: 'Hide API keys' }).click();
      },
    );

    await step('cancel a running summary', async () => {
      // Another length: a new summary, not the one just made.
      await page.getByLabel('Length (words)').fill('175');
      await page.getByRole('button', { name: 'Summarize' }).click();
      await page.getByRole('progressbar').waitFor();
      // It asks first, as every destructive action does; Keep it going keeps it.
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      const question = page.getByRole('group', { name: /^Cancel the summary of / });
      await expect.poll(() => focused(page)).toBe('job-keep');
      expect(await seriousViolations(page)).toEqual([]);
      await question.getByRole('button', { name: 'Keep it going' }).click();
      await expect.poll(() => focused(page)).toBe('job-cancel');
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      const [deleted] = await Promise.all([
        page.waitForResponse((response) => response.request().method() === 'DELETE'),
        question.getByRole('button', { name: 'Cancel the summary' }).click(),
      ]);
      expect(deleted.status()).toBe(200);
      await page.getByText(/^Cancelled/).waitFor();
      await expect(page.getByRole('progressbar').count()).resolves.toBe(0);
    });

    await step('reload: still signed in, and the history opens the summary again', async () => {
      await page.reload();
      const history = page.getByRole('region', { name: 'Your summaries' });
      await history.getByText('cancelled').first().waitFor();
      await doneEntry(page).click();
      await page.getByRole('article', { name: VIDEO_TITLE }).waitFor();
      await expect(
        page.getByRole('article', { name: VIDEO_TITLE }).getByRole('link').count(),
      ).resolves.toBeGreaterThan(0);
    });

    await step('a refused token sends the person to Sign in, keeping the pasted link', async () => {
      const pasted = `https://youtu.be/${VIDEO_ID}`;
      await page.getByLabel('Video URL').fill(pasted);
      // As if the token had expired: the API refuses it at the next call (the reload's).
      await page.evaluate(`(() => {
        const kept = JSON.parse(sessionStorage.getItem('tubesum.session'));
        sessionStorage.setItem('tubesum.session', JSON.stringify({ ...kept, token: 'expired.token.value' }));
      })()`);
      await page.reload();
      await page.getByText('Your sign-in has expired.', { exact: false }).waitFor();
      const signIn = form(page, 'Sign in');
      await signIn.getByLabel('Username or email').fill(user.username);
      await signIn.getByLabel('Password').fill(user.password);
      await signIn.getByRole('button', { name: 'Sign in' }).click();
      await expect
        .poll(() => page.getByLabel('Video URL').inputValue(), { timeout: UI_TIMEOUT })
        .toBe(pasted);
    });

    await step('dark mode follows the system and passes axe too', async () => {
      await page.emulateMedia({ colorScheme: 'dark' });
      const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
      expect(background).toBe('rgb(18, 18, 18)');
      expect(await seriousViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
    });

    // The footer links the API's documentation.
    await expect(
      page.getByRole('link', { name: 'API documentation' }).getAttribute('href'),
    ).resolves.toBe('docs');
  });

  it('works on a 390 px phone with the keyboard alone', async () => {
    const phone = await open({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const { page } = phone;
    const step = <T>(name: string, run: () => Promise<T>) =>
      watchedStep(phone, FAILURE_SCREENSHOT, name, run);

    await step('the signed-out page fits the phone', async () => {
      await page.goto(`${origin}/`);
      await form(page, 'Sign in').waitFor();
      await expect(scrollsSideways(page)).resolves.toBe(false);
    });

    await step('sign in with the keyboard', async () => {
      await tabTo(page, 'sign-in-identifier');
      await page.keyboard.type(user.username);
      await page.keyboard.press('Tab');
      await page.keyboard.type(user.password);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
    });

    await step('open a summary from the history with the keyboard; it fits the phone', async () => {
      const entry = doneEntry(page);
      await entry.waitFor();
      await entry.focus();
      await page.keyboard.press('Enter');
      const heading = page.getByRole('heading', { name: VIDEO_TITLE, level: 2 });
      await heading.waitFor();
      // The summary takes the focus, so the keyboard goes on from there.
      await expect(page.evaluate("document.activeElement.id === 'summary-title'")).resolves.toBe(
        true,
      );
      await expect(scrollsSideways(page)).resolves.toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      mkdirSync(RESULTS_DIR, { recursive: true });
      await page.screenshot({ path: PHONE_SCREENSHOT, fullPage: true });
    });

    await step('make and delete an API key with the keyboard; the key fits the phone', async () => {
      await page.locator('#keys-toggle').focus();
      await page.keyboard.press('Enter');
      await page.getByLabel('Name').waitFor();
      await page.keyboard.press('Tab');
      await expect.poll(() => focused(page)).toBe('key-name');
      await page.keyboard.type('phone');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Your new key “phone”' }).waitFor();
      await expect.poll(() => focused(page)).toBe('made-key-title');
      // The key and the MCP configuration wrap: nothing scrolls sideways.
      await expect(scrollsSideways(page)).resolves.toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      const key = await page.getByLabel('Key', { exact: true }).inputValue();
      await tabTo(page, 'key-done');
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('keys-list-title');
      await expect(pageHolds(page, key)).resolves.toBe(false);

      // Delete: Enter on Delete asks (Keep it has the focus), Shift+Tab and Enter confirm.
      const item = page.getByRole('listitem').filter({ hasText: 'phone' });
      await item.getByRole('button', { name: 'Delete phone' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toMatch(/^keep-/);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await page.getByText('Deleted “phone”: it no longer works.').waitFor();
      expect((await env.host.request('GET', '/summaries', { token: key })).status).toBe(401);
    });

    await step(
      'a summary that becomes a job takes the focus and shows its bar and Cancel on the phone',
      async () => {
        // Slower than the steps before Cancel can take on a loaded machine: it is cancelled.
        env.openai.script(OPENAI_MODEL_NAME, [{ delayMs: 10 * CALL_MS }]);
        const summarize = form(page, 'Summarize a video');
        await summarize.getByLabel('Video URL').fill(VIDEO_URL);
        // A length no summary has yet: a new job.
        await summarize.getByLabel('Length (words)').fill('225');
        await summarize.getByLabel('Model').selectOption(OPENAI_MODEL_NAME);
        // From the top of the page, as after signing in: the job's card comes below the form,
        // out of sight on a phone unless the page brings it into view.
        await page.evaluate('window.scrollTo(0, 0)');
        await summarize.getByLabel('Video URL').focus();
        await page.keyboard.press('Enter');
        const bar = page.getByRole('progressbar');
        await bar.waitFor();
        await expect.poll(() => focused(page), { timeout: UI_TIMEOUT }).toBe('job-title');
        const cancel = page.getByRole('button', { name: 'Cancel' });
        await expect.poll(() => inView(page, bar), { timeout: UI_TIMEOUT }).toBe(true);
        await expect.poll(() => inView(page, cancel), { timeout: UI_TIMEOUT }).toBe(true);
        // Named by the video: its id at first, its title once the job has fetched it (longer,
        // it wraps: the bar and Cancel stay in view).
        const title = page.locator('#job-title');
        await expect(title.textContent()).resolves.toMatch(
          new RegExp(`^(Video ID ${VIDEO_ID}|${VIDEO_TITLE})$`),
        );
        await expect.poll(() => title.textContent(), { timeout: UI_TIMEOUT }).toBe(VIDEO_TITLE);
        await expect(bar.count()).resolves.toBe(1);
        await expect.poll(() => inView(page, bar), { timeout: UI_TIMEOUT }).toBe(true);
        await expect.poll(() => inView(page, cancel), { timeout: UI_TIMEOUT }).toBe(true);
        await expect(scrollsSideways(page)).resolves.toBe(false);
        expect(await seriousViolations(page)).toEqual([]);
        await page.emulateMedia({ colorScheme: 'dark' });
        expect(await seriousViolations(page)).toEqual([]);
        await page.emulateMedia({ colorScheme: 'light' });
      },
    );

    await step(
      'cancel it with the keyboard: the job keeps the focus, and the history says so at once',
      async () => {
        const history = page.getByRole('region', { name: 'Your summaries' });
        const cancelled = history.getByRole('listitem').filter({ hasText: 'cancelled ·' });
        const before = await cancelled.count();
        // The history's next list is held: what it shows now is the page's own knowledge.
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        await page.route(HISTORY_LIST, async (route) => {
          await held;
          await route.continue();
        });
        try {
          await page.keyboard.press('Tab');
          await expect.poll(() => focused(page), { timeout: UI_TIMEOUT }).toBe('job-cancel');
          // Enter asks (Keep it going has the focus); Shift+Tab and Enter confirm.
          await page.keyboard.press('Enter');
          await expect.poll(() => focused(page), { timeout: UI_TIMEOUT }).toBe('job-keep');
          await page.keyboard.press('Shift+Tab');
          const [deleted] = await Promise.all([
            page.waitForResponse((response) => response.request().method() === 'DELETE'),
            page.keyboard.press('Enter'),
          ]);
          expect(deleted.status()).toBe(200);
          await page.getByText(/^Cancelled/).waitFor();
          await expect.poll(() => focused(page), { timeout: UI_TIMEOUT }).toBe('job-title');
          await expect.poll(() => cancelled.count(), { timeout: UI_TIMEOUT }).toBe(before + 1);
          await expect(history.getByText('in progress').count()).resolves.toBe(0);
          expect(await seriousViolations(page)).toEqual([]);
        } finally {
          release();
          // Once the held list has gone on its way.
          await page.unrouteAll({ behavior: 'wait' });
        }
      },
    );
  });

  it('deletes the account, behind a confirmation that asks for the password, with the keyboard', async () => {
    const desktop = await open({ viewport: { width: 1280, height: 900 } });
    const { page } = desktop;
    const step = <T>(name: string, run: () => Promise<T>) =>
      watchedStep(desktop, FAILURE_SCREENSHOT, name, run);
    // An account of its own, with an API key made outside the page.
    const { user: leaving, token } = await env.host.registerAndLogin();
    const key = (await env.host.request('POST', '/api-keys', { json: { name: 'ci' }, token })).body
      .key as string;
    const region = page.getByRole('region', { name: 'Delete account' });
    const password = region.getByLabel('Password', { exact: true });

    await step('sign in', async () => {
      await page.goto(`${origin}/`);
      const signIn = form(page, 'Sign in');
      await signIn.getByLabel('Username or email').fill(leaving.username);
      await signIn.getByLabel('Password').fill(leaving.password);
      await signIn.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
    });

    await step(
      'Delete account asks for the password, which takes the focus; Keep keeps it',
      async () => {
        await page.locator('#delete-account-start').focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => focused(page)).toBe('delete-account-password');
        await expect(
          region.getByRole('form', { name: /^Delete your account\?/ }).count(),
        ).resolves.toBe(1);
        expect(await seriousViolations(page)).toEqual([]);
        await region.getByRole('button', { name: 'Keep my account' }).click();
        await expect.poll(() => focused(page)).toBe('delete-account-start');
        await expect(password.count()).resolves.toBe(0);
      },
    );

    await step(
      'a wrong password is told by the field, which keeps the focus; nothing is deleted',
      async () => {
        await page.keyboard.press('Enter');
        await expect.poll(() => focused(page)).toBe('delete-account-password');
        await page.keyboard.type('not-the-password');
        await page.keyboard.press('Enter');
        await expectFieldError(page, 'Password', /not the password of this account/);
        // Announced too: Enter in the field left the focus where it was.
        await expect(
          region.getByRole('alert').filter({ hasText: 'not the password' }).count(),
        ).resolves.toBe(1);
        await expect.poll(() => focused(page)).toBe('delete-account-password');
        // Still signed in, and the account still works.
        await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(1);
        expect((await env.host.request('GET', '/summaries', { token: key })).status).toBe(200);
        expect(await seriousViolations(page)).toEqual([]);
      },
    );

    await step(
      'the right password deletes it: signed out, told so, and nothing works any more',
      async () => {
        await password.fill(leaving.password);
        const [deleted] = await Promise.all([
          page.waitForResponse((response) => response.url().endsWith('/account')),
          page.keyboard.press('Enter'),
        ]);
        expect(deleted.status()).toBe(204);
        const notice = page
          .getByRole('status')
          .filter({ hasText: 'Your account has been deleted' });
        await notice.waitFor();
        await expect.poll(() => focused(page)).toBe('account-notice');
        await form(page, 'Sign in').waitFor();
        await expect(
          page.evaluate("sessionStorage.getItem('tubesum.session')"),
        ).resolves.toBeNull();
        expect(await seriousViolations(page)).toEqual([]);

        expect((await env.host.request('GET', '/summaries', { token })).status).toBe(401);
        expect((await env.host.request('GET', '/summaries', { token: key })).status).toBe(401);
        const login = await env.host.request('POST', '/token', {
          json: { username: leaving.username, password: leaving.password },
        });
        expect(login.status).toBe(401);
        // The name is free again.
        const again = await env.host.request('POST', '/register', { json: leaving });
        expect(again.status).toBe(201);
      },
    );
  });

  it('left no request off the host and logged no error in the page', () => {
    const seen = contexts.map((watched) => ({
      foreign: [...watched.foreign],
      pageErrors: watched.pageErrors,
      // The browser logs every 4xx answer to fetch ("Failed to load resource"): those are the
      // refusals the flow asked for (wrong passwords, the link that is not YouTube, the refused
      // token), not errors of the page.
      consoleErrors: watched.consoleErrors.filter(
        (text) =>
          !/^Failed to load resource: the server responded with a status of (401|403|422)/.test(
            text,
          ),
      ),
    }));
    expect(seen).toEqual(contexts.map(() => ({ foreign: [], pageErrors: [], consoleErrors: [] })));
    expect(contexts.length).toBe(3);
  });
});
