// Chapters a creator wrote: YouTube turns timestamps in a video's description into chapters when
// they follow its rules (support.google.com/youtube/answer/9884579): the first at 0:00, at least
// three in ascending order, each at least 10 seconds long. Those are the chapters of the summary,
// times exact and titles as written; a model's data block lists them too, so that its answer
// can follow them.
import { withoutHidden } from '../util/text';
import { CHAPTER_FORM, parseTimestamp, readTimedLine } from './timed-line';

/** A chapter a description lists ("0:00 Intro"). */
export interface CreatorChapter {
  startMs: number;
  title: string;
}

/** YouTube's shortest chapter: a description whose chapters are shorter lists none. */
export const SHORTEST_CHAPTER_MS = 10_000;

/** A description line's title is kept up to this many characters (YouTube's own title limit). */
const TITLE_CHARS = 100;

/**
 * The chapters a description lists, as YouTube recognises them: lines that start with a time
 * ("0:00 Intro", "1:02:03 - Wrap-up", "(12:30) Results"; the separator after the time trimmed),
 * lines whose time does not follow the previous one skipped; at least three, the first at 0:00,
 * each at least 10 s long (the last one too, when the video's end `endMs` is known). Empty
 * otherwise. Linear in the description's length.
 */
export function creatorChapters(description: string, endMs?: number): CreatorChapter[] {
  const chapters: CreatorChapter[] = [];
  for (const line of description.split(/\r?\n/)) {
    const read = readTimedLine(line, CHAPTER_FORM);
    const startMs = read ? parseTimestamp(read.time) : undefined;
    if (!read || startMs === undefined) continue;
    const previous = chapters.at(-1);
    if (previous !== undefined && startMs <= previous.startMs) continue;
    // Titles as written, but for what would hide or reorder them in the API's output.
    const title = withoutHidden(read.text).replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS);
    chapters.push({ startMs, title });
  }
  if (chapters.length < 3 || chapters[0]?.startMs !== 0) return [];
  const ends = [...chapters.slice(1).map((chapter) => chapter.startMs), endMs];
  const tooShort = chapters.some((chapter, i) => {
    const end = ends[i];
    return end !== undefined && end - chapter.startMs < SHORTEST_CHAPTER_MS;
  });
  return tooShort ? [] : chapters;
}
