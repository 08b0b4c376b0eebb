// Where the parts of a long transcript begin in the video, and parts that follow the creator's
// chapters: when the description divides the video, a part that ends where a chapter ends lets
// each map call summarise whole chapters. Such parts cost at most one call more than the even
// split; when no cut at chapter starts manages that, the even split is
// used and each chapter is summarised by the part it starts in.

import { estimateTokens } from '../../models/tokens';
import type { TimedUnit } from '../../transcripts/timed-units';
import { splitIntoParts } from './plan/even-split';

/** A part of the transcript and where it starts in the video. */
export interface PartSpan {
  text: string;
  startMs: number;
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Each part with the start of the unit its first word comes from. The parts hold every word of
 * the units, in order (splitIntoParts), so counting words finds where each begins.
 */
export function spansOf(units: readonly TimedUnit[], parts: readonly string[]): PartSpan[] {
  const spans: PartSpan[] = [];
  let unit = 0;
  // Words of the current unit that earlier parts took.
  let used = 0;
  for (const text of parts) {
    while (unit < units.length && used >= wordCount(units[unit]?.text ?? '')) {
      unit++;
      used = 0;
    }
    spans.push({ text, startMs: units[unit]?.startMs ?? units.at(-1)?.startMs ?? 0 });
    let left = wordCount(text);
    while (left > 0 && unit < units.length) {
      const available = wordCount(units[unit]?.text ?? '') - used;
      if (left < available) {
        used += left;
        left = 0;
      } else {
        left -= available;
        unit++;
        used = 0;
      }
    }
  }
  return spans;
}

/**
 * The units in parts of at most `maxTokens` estimated tokens that each end where a chapter
 * starting at one of `chapterStartsMs` begins, as many as the even split needs or one more, each
 * ending at the chapter start nearest its even share. Undefined when no such cut exists.
 */
export function splitAtChapters(
  units: readonly TimedUnit[],
  maxTokens: number,
  chapterStartsMs: readonly number[],
): string[] | undefined {
  const texts = units.map((unit) => unit.text.trim());
  const costs = texts.map((text) => (text === '' ? 0 : estimateTokens(text) + 1));
  if (costs.some((cost) => cost > maxTokens)) return undefined;
  const before = [0];
  for (const cost of costs) before.push((before.at(-1) ?? 0) + cost);
  const total = before.at(-1) ?? 0;
  // The unit each chapter starts at, after the first.
  const allowed = [
    ...new Set(
      chapterStartsMs
        .map((ms) => units.findIndex((unit) => unit.startMs >= ms))
        .filter((index) => index > 0),
    ),
  ].sort((a, b) => a - b);
  const even = splitIntoParts(texts, maxTokens).length;
  for (const count of [even, even + 1]) {
    const cuts: number[] = [0];
    for (let k = 1; k < count; k++) {
      const previous = cuts.at(-1) ?? 0;
      const goal = (total * k) / count;
      let best: number | undefined;
      for (const cut of allowed) {
        if (cut <= previous || (before[cut] ?? 0) - (before[previous] ?? 0) > maxTokens) continue;
        const distance = Math.abs((before[cut] ?? 0) - goal);
        if (best === undefined || distance < Math.abs((before[best] ?? 0) - goal)) best = cut;
      }
      if (best === undefined) break;
      cuts.push(best);
    }
    cuts.push(units.length);
    const fits =
      cuts.length === count + 1 &&
      cuts.every(
        (cut, i) => i === 0 || (before[cut] ?? 0) - (before[cuts[i - 1] ?? 0] ?? 0) <= maxTokens,
      );
    if (fits) {
      return cuts.slice(0, -1).map((from, i) =>
        texts
          .slice(from, cuts[i + 1])
          .filter((text) => text !== '')
          .join(' '),
      );
    }
  }
  return undefined;
}
