// The timeline under a summary (issue 38), in Debian's chromium against the local host (DynamoDB
// Local, recorded YouTube serving a description that lists chapters, the offline summarizer):
// its chapters and key points are links to the moments the API gave, named for screen readers,
// reached by Tab in the video's order, told again as a text list; it fits a 390 px phone with
// marks a finger can hit, and axe-core finds no violation at 390 and 1280 px, light and dark. A
// summary without chapters or key points has no bar; one of unknown length says so.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '../../web/api';
import { clock } from '../../web/times';
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
import {
  chapterLinks,
  checkBothSchemes,
  expectMomentLinks,
  expectTappableMarks,
  focusedName,
  markLinks,
  summaryIn,
  timeline,
} from '../support/timeline-page';
import { loadSharedTranscript, toCaptionXml } from '../support/transcripts';

const SKIPPED = skipWithoutChromium('the timeline of the page at /');
const FAILURE_SCREENSHOT = resolve(RESULTS_DIR, 'timeline-failure.png');
const VIDEO_ID = FAKE_VIDEO_IDS.normal;
const VIDEO_URL = `https://www.youtube.com/watch?v=${VIDEO_ID}`;
/** The recorded video's title (youtube.innertube.json), which names the summary's article. */
const VIDEO_TITLE = 'Surface Go Review - It’s Awesome';
/** Chapters as a creator lists them in a description (YouTube's form: a time, then a title). */
const DESCRIPTION = ['How roots find water.', '', '0:00 Intro', '3:05 Roots', '7:40 Kernels'].join(
  '\n',
);
const CHAPTER_TITLES = ['Intro', 'Roots', 'Kernels'];
const UI_TIMEOUT = 45_000;

let env: SummarizeEnv;
let browser: Browser;
let origin: string;
let watched: Watched;
/** The video's length as the fake YouTube gives it: where its last caption ends. */
let videoSeconds: number;

beforeAll(async () => {
  if (SKIPPED) return;
  browser = await launchChromium();
  env = await startSummarizeEnv();
  const captions = loadSharedTranscript().segments;
  const last = captions.at(-1);
  videoSeconds = last ? Math.ceil((last.offsetMs + last.durationMs) / 1000) : 0;
  env.youtube.setEnglishTrack(toCaptionXml(captions));
  env.youtube.setVideoDetails({ lengthSeconds: videoSeconds, description: DESCRIPTION });
  origin = new URL(env.host.url).origin;
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

describe.skipIf(SKIPPED)('the timeline under a summary, in chromium', () => {
  const id = randomUUID().slice(0, 8);
  let summary: Summary;

  it('links each chapter and key point to its moment, by keyboard and as text, light and dark, 1280 and 390 px', async () => {
    watched = await watchedPage(browser, origin, { viewport: { width: 1280, height: 900 } });
    const { page } = watched;
    page.setDefaultTimeout(UI_TIMEOUT);
    const step = <T>(name: string, run: () => Promise<T>) =>
      watchedStep(watched, FAILURE_SCREENSHOT, name, run);
    const summaries: Summary[] = [];
    page.on('response', async (response) => {
      const found = await summaryIn(response);
      if (found) summaries.push(found);
    });

    await step('create an account and summarise a video whose creator lists chapters', async () => {
      await page.goto(`${origin}/`);
      const create = page.getByRole('form', { name: 'Create account' });
      await create.getByLabel('Username').fill(`timeline_${id}`);
      await create.getByLabel('Email').fill(`timeline_${id}@example.com`);
      await create.getByLabel('Password').fill(`Corr3ct-horse-battery-${id}`);
      await create.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.getByLabel('Video URL').fill(VIDEO_URL);
      await page.getByLabel('Model').selectOption('extractive');
      await page.getByRole('button', { name: 'Summarize' }).click();
      await page.getByRole('article', { name: VIDEO_TITLE }).waitFor({ timeout: 2 * UI_TIMEOUT });
      await expect.poll(() => summaries.length).toBeGreaterThan(0);
      summary = summaries.at(-1) as Summary;
      expect(summary.chapters?.map((chapter) => chapter.title)).toEqual(CHAPTER_TITLES);
      expect(summary.key_points?.length).toBeGreaterThanOrEqual(3);
      expect(summary.metadata.duration_seconds).toBe(videoSeconds);
    });

    await step('each segment links its chapter’s moment, named by number, title and times', () =>
      expectMomentLinks(
        chapterLinks(page),
        VIDEO_ID,
        summary.chapters ?? [],
        (chapter, i) =>
          `Chapter ${i + 1}, ${chapter.title}, ${clock(chapter.start_seconds)} to ${clock(chapter.end_seconds)}`,
      ),
    );

    await step('each mark links its key point’s moment, named by number, time and words', () =>
      expectMomentLinks(
        markLinks(page),
        VIDEO_ID,
        summary.key_points ?? [],
        (point, i) => `Key point ${i + 1}, at ${clock(point.start_seconds)}: ${point.text}`,
      ),
    );

    await step('segments and marks stand where their moments are on the bar', async () => {
      const bar = await timeline(page)
        .getByRole('list', { name: 'Parts of the video', exact: true })
        .boundingBox();
      if (!bar) throw new Error('no bar');
      const at = (seconds: number) => bar.x + (seconds / videoSeconds) * bar.width;
      for (const [i, link] of (await chapterLinks(page).all()).entries()) {
        const chapter = summary.chapters?.[i];
        const box = await link.boundingBox();
        expect(Math.abs((box?.x ?? 0) - at(chapter?.start_seconds ?? 0))).toBeLessThan(2);
        expect(
          Math.abs((box?.x ?? 0) + (box?.width ?? 0) - at(chapter?.end_seconds ?? 0)),
        ).toBeLessThan(2);
      }
      for (const [i, link] of (await markLinks(page).all()).entries()) {
        const box = await link.boundingBox();
        const middle = (box?.x ?? 0) + (box?.width ?? 0) / 2;
        expect(Math.abs(middle - at(summary.key_points?.[i]?.start_seconds ?? 0))).toBeLessThan(2);
      }
      await expectTappableMarks(page);
    });

    await step('Tab goes from the summary through the chapters, then the key points', async () => {
      // A new summary takes the focus: the keyboard goes on from its heading.
      await expect
        .poll(() => page.evaluate('document.activeElement && document.activeElement.id'))
        .toBe('summary-title');
      const expected = [...(await chapterLinks(page).all()), ...(await markLinks(page).all())];
      const names = await Promise.all(expected.map((link) => link.getAttribute('aria-label')));
      const reached: string[] = [];
      for (const name of names) {
        await page.keyboard.press('Tab');
        reached.push(await focusedName(page));
        // What the focused part holds is said under the bar too.
        await expect(timeline(page).locator('.timeline-now').textContent()).resolves.toBe(name);
      }
      expect(reached).toEqual(names);
      await page.keyboard.press('Tab');
      await expect(focusedName(page)).resolves.toBe('The timeline as text');
    });

    await step(
      'the timeline as text lists every chapter and key point in the video’s order',
      async () => {
        await page.keyboard.press('Enter');
        const items = timeline(page)
          .getByRole('list', { name: 'The timeline as text', exact: true })
          .getByRole('listitem');
        await items.first().waitFor();
        const lines = await items.allTextContents();
        const chapters = summary.chapters ?? [];
        const points = summary.key_points ?? [];
        expect(lines).toHaveLength(chapters.length + points.length);
        for (const [i, chapter] of chapters.entries()) {
          expect(lines).toContain(
            `Chapter ${i + 1}, ${chapter.title}, ${clock(chapter.start_seconds)} to ${clock(chapter.end_seconds)}`,
          );
        }
        for (const [i, point] of points.entries()) {
          const line = lines.find((text) => text.startsWith(`Key point ${i + 1}, `));
          expect(line).toContain(`at ${clock(point.start_seconds)} (in chapter `);
          expect(line?.endsWith(`: ${point.text}`)).toBe(true);
        }
        // In time order: each line's first time is no earlier than the one before.
        const times = lines.map((text) => {
          const [m = '0', s = '0'] = /(\d+):(\d{2})/.exec(text)?.slice(1) ?? [];
          return Number(m) * 60 + Number(s);
        });
        expect([...times].sort((a, b) => a - b)).toEqual(times);
      },
    );

    await step('pointing at a part names it under the bar too', async () => {
      const mark = markLinks(page).last();
      await mark.hover();
      await expect(timeline(page).locator('.timeline-now').textContent()).resolves.toBe(
        await mark.getAttribute('aria-label'),
      );
      await page.mouse.move(0, 0);
      await expect(timeline(page).locator('.timeline-now').textContent()).resolves.toMatch(
        new RegExp(`^${clock(videoSeconds)} · 3 chapters · \\d+ key points$`),
      );
    });

    await step('axe finds nothing at 1280 px, light and dark', async () => {
      await checkBothSchemes(page, '1280 px');
    });

    await step('at 390 px it fits, its marks stay tappable, and axe finds nothing', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await timeline(page).scrollIntoViewIfNeeded();
      await expectTappableMarks(page);
      await checkBothSchemes(page, '390 px');
      await page.setViewportSize({ width: 1280, height: 900 });
    });
  });

  it('shows no bar for a summary without chapters or key points, and says when the length is unknown', async () => {
    const { page } = watched;
    const step = <T>(name: string, run: () => Promise<T>) =>
      watchedStep(watched, FAILURE_SCREENSHOT, name, run);
    /** What the page's summary calls are answered with: the API's summary as `edit` makes it. */
    let edit: ((summary: Summary) => void) | undefined;
    await page.route('**/*summar*', async (route) => {
      const response = await route.fetch();
      const body = await response.json().catch(() => undefined);
      const found = body?.status === 'done' ? body.result : body?.summary ? body : undefined;
      if (found && edit) edit(found);
      return route.fulfill({ response, json: body });
    });
    const answerWith = (change: (summary: Summary) => void) => {
      edit = change;
    };
    const summarizeAgain = async () => {
      await page.getByRole('button', { name: 'Summarize' }).click();
      await page.getByRole('article', { name: VIDEO_TITLE }).waitFor();
    };

    await step('without chapters or key points, no timeline at all', async () => {
      answerWith((found) => {
        found.chapters = [];
        found.key_points = [];
      });
      await summarizeAgain();
      await expect
        .poll(() =>
          page
            .getByRole('article', { name: VIDEO_TITLE })
            .getByRole('heading', { name: 'Key points' })
            .count(),
        )
        .toBe(0);
      await expect(timeline(page).count()).resolves.toBe(0);
      await expect(page.locator('.timeline-bar').count()).resolves.toBe(0);
    });

    await step(
      'key points of a video of unknown length: marks on a rail, the length said',
      async () => {
        answerWith((found) => {
          found.chapters = [];
          found.metadata.duration_seconds = null;
        });
        await summarizeAgain();
        await timeline(page).waitFor();
        const points = summary.key_points ?? [];
        const last = Math.max(...points.map((point) => point.start_seconds));
        await expect(timeline(page).locator('.timeline-now').textContent()).resolves.toBe(
          `Length unknown: shown up to ${clock(last)} · ${points.length} key points`,
        );
        await expect(chapterLinks(page).count()).resolves.toBe(0);
        await expect(markLinks(page).count()).resolves.toBe(points.length);
        await page.setViewportSize({ width: 390, height: 844 });
        await expectTappableMarks(page);
        await checkBothSchemes(page, '390 px, unknown length');
        await page.unrouteAll({ behavior: 'wait' });
      },
    );

    await step('no request left the host and the page logged no error', async () => {
      expect({
        foreign: [...watched.foreign],
        pageErrors: watched.pageErrors,
        consoleErrors: watched.consoleErrors,
      }).toEqual({ foreign: [], pageErrors: [], consoleErrors: [] });
    });
  });
});
