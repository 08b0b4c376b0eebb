// The timeline under a summary as a browser test reads it (test/e2e/timeline.test.ts): its parts
// by their accessible names, the summary the API answered the page with, and what a link to a
// moment and a mark must be.
import { resolve } from 'node:path';
import type { Locator, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import type { Summary } from '../../web/api';
import { axeViolations, RESULTS_DIR } from './browser';

/** WCAG 2.2's least target size (2.5.8), in CSS pixels. */
const LEAST_TARGET_PX = 24;

export const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline', exact: true });
export const chapterLinks = (page: Page) =>
  timeline(page).getByRole('list', { name: 'Parts of the video', exact: true }).getByRole('link');
export const markLinks = (page: Page) =>
  timeline(page)
    .getByRole('list', { name: 'Key points on the timeline', exact: true })
    .getByRole('link');

/** The summary a response of the API carries: POST /summarize's 200, or a done job's result. */
export async function summaryIn(response: Response): Promise<Summary | undefined> {
  const path = new URL(response.url()).pathname;
  if (!/\/(summarize|summaries\/[^/]+)$/.test(path) || !response.ok()) return undefined;
  const body = await response.json().catch(() => undefined);
  if (body?.status === 'done') return body.result as Summary;
  return body?.summary === undefined ? undefined : (body as Summary);
}

/** The `t=` of a link to a moment of the video `videoId`, in whole seconds (NaN: not one). */
function secondsOf(href: string | null, videoId: string): number {
  const match = new RegExp(`^https://www\\.youtube\\.com/watch\\?v=${videoId}&t=(\\d+)s$`).exec(
    href ?? '',
  );
  return match ? Number(match[1]) : Number.NaN;
}

/**
 * Each of `links` opens its moment's URL of the video `videoId` (the API's, `t=` its start in
 * whole seconds) in a new tab, and is named as `name` says; one link per moment.
 */
export async function expectMomentLinks<T extends { url: string; start_seconds: number }>(
  links: Locator,
  videoId: string,
  moments: readonly T[],
  name: (moment: T, index: number) => string,
): Promise<void> {
  const all = await links.all();
  expect(all).toHaveLength(moments.length);
  for (const [i, moment] of moments.entries()) {
    const link = all[i] as Locator;
    const href = await link.getAttribute('href');
    expect(href).toBe(moment.url);
    expect(secondsOf(href, videoId)).toBe(Math.floor(moment.start_seconds));
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    await expect(link.getAttribute('rel')).resolves.toContain('noopener');
    await expect(link.getAttribute('aria-label')).resolves.toBe(name(moment, i));
  }
}

/** The accessible name of the focused element (its aria-label, else its text). */
export const focusedName = (page: Page) =>
  page.evaluate<string>(
    "(document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '').trim()",
  );

/** The boxes of the marks' links: each at least a finger's target, no two overlapping. */
export async function expectTappableMarks(page: Page): Promise<void> {
  const boxes = await Promise.all((await markLinks(page).all()).map((link) => link.boundingBox()));
  for (const box of boxes) {
    expect(box?.width).toBeGreaterThanOrEqual(LEAST_TARGET_PX);
    expect(box?.height).toBeGreaterThanOrEqual(LEAST_TARGET_PX);
  }
  const overlapping = boxes.flatMap((a, i) =>
    boxes.slice(i + 1).filter((b) => {
      if (!a || !b) return false;
      const wide = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const high = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      return wide > 0.5 && high > 0.5;
    }),
  );
  expect(overlapping).toEqual([]);
}

/**
 * axe in light and dark at the window's width, and no sideways scrolling; the timeline's picture
 * in each is kept as `timeline-<where>-<scheme>.png` for a person to look at.
 */
export async function checkBothSchemes(page: Page, where: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await axeViolations(page), `${where}, ${colorScheme}`).toEqual([]);
    const name = `timeline-${where.replace(/\W+/g, '-')}-${colorScheme}.png`;
    await timeline(page).screenshot({ path: resolve(RESULTS_DIR, name) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  const sideways = await page.evaluate(
    'document.documentElement.scrollWidth > document.documentElement.clientWidth',
  );
  expect(sideways, where).toBe(false);
}
