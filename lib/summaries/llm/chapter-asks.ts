// What each call of a model's summary is asked about chapters, and what is kept of its answer.
// Chapters ride on the calls a summary makes anyway: the whole transcript's call, or each part's
// (the map step), never the combinations. A call summarises the creator's chapters that start in
// what it reads, or divides what it reads into about as many chapters as its share of the video
// calls for; the calls' chapters are put together once all are done.

import type { CreatorChapter } from '../../transcripts/creator-chapters';
import type { Transcript } from '../../youtube/types';
import { type ChapterStart, chapterCount, chaptersOfVideo, videoEndMs } from '../chapters/chapter';
import { type ClaimedChapter, snapChapters } from '../chapters/model';
import type { SummarizeInput } from '../types';
import type { PartSpan } from './parts';
import type { ChapterAsk } from './prompt';

/** A claimed chapter time is a creator chapter's when this close (the model copies its mark). */
const CREATOR_MATCH_MS = 2_000;

/** The chapters a summary asks its calls for. */
export interface ChapterPlan {
  /** The creator's chapters (the calls summarise them); empty when the description has none. */
  creator: CreatorChapter[];
  /** Chapters to make for the whole video when there are no creator chapters (0: none). */
  target: number;
  /** Where the video ends. */
  endMs: number;
}

/** What a summary's calls are asked about chapters: nothing when the input asks for none. */
export function chapterPlan(input: Pick<SummarizeInput, 'transcript' | 'metadata' | 'chapters'>) {
  const endMs = videoEndMs(input.transcript, input.metadata);
  if (input.chapters === false) return { creator: [], target: 0, endMs };
  const creator = chaptersOfVideo(input.metadata.description, endMs);
  const { target } = chapterCount(endMs, input.transcript.wordCount);
  return { creator, target: creator.length > 0 ? 0 : target, endMs };
}

/**
 * The ask of a call reading the video from `fromMs` to `toMs`: the creator's chapters starting
 * there (at most `most`), or about its share of the chapters to make (at least one, at most
 * `most`). Undefined when the plan asks for none.
 */
export function askFor(
  plan: ChapterPlan,
  fromMs: number,
  toMs: number,
  most = Number.POSITIVE_INFINITY,
): ChapterAsk | undefined {
  if (plan.creator.length > 0) {
    const chapters = plan.creator
      .filter((chapter) => chapter.startMs >= fromMs && chapter.startMs < toMs)
      .slice(0, most);
    return { kind: 'summarise', chapters, fromMs, toMs };
  }
  if (plan.target === 0) return undefined;
  const share = (toMs - fromMs) / Math.max(1, plan.endMs);
  const count = Math.min(most, Math.max(1, Math.round(plan.target * share)));
  return { kind: 'make', count, fromMs, toMs };
}

/**
 * The largest ask a part holding `share` of the transcript's tokens may get, to size parts by:
 * the chapters of a slightly larger share (speech is not spread evenly), with the longest marks
 * (and, for the creator's, which the call's data lists, the longest titles).
 */
export function probeAsk(plan: ChapterPlan, share: number): ChapterAsk | undefined {
  const wanted = plan.creator.length > 0 ? plan.creator.length : plan.target;
  if (wanted === 0) return undefined;
  const most = Math.min(wanted, Math.ceil(wanted * Math.min(1, share)) + 1);
  const far = Math.max(plan.endMs, 36_000_000);
  if (plan.creator.length > 0) {
    const chapters = [...plan.creator]
      .sort((a, b) => b.title.length - a.title.length)
      .slice(0, most)
      .map((chapter) => ({ ...chapter, startMs: far }));
    return { kind: 'summarise', chapters, fromMs: far, toMs: far };
  }
  return { kind: 'make', count: most, fromMs: far, toMs: far };
}

/**
 * Each part's ask: from where it starts to where the next one does, within the size of `probe`
 * (the largest ask the parts were sized for) when there is one.
 */
export function partAsks(
  plan: ChapterPlan,
  spans: readonly PartSpan[],
  probe?: ChapterAsk,
): (ChapterAsk | undefined)[] {
  let most = Number.POSITIVE_INFINITY;
  if (probe) most = probe.kind === 'make' ? probe.count : probe.chapters.length;
  return spans.map((span, index) =>
    askFor(plan, index === 0 ? 0 : span.startMs, spans[index + 1]?.startMs ?? plan.endMs, most),
  );
}

/**
 * The chapters of a call's answer that hold up: for creator chapters, those it summarised (by
 * their listed time; title and time the creator's); for made ones, those in the call's stretch
 * of the video that start at a caption (snapped to its start), at most twice as many as asked.
 * `cut` bounds a summary's length.
 */
export function checkChapters(
  ask: ChapterAsk,
  claimed: readonly ClaimedChapter[],
  transcript: Transcript,
  endMs: number,
  cut: (summary: string) => string,
): ChapterStart[] {
  if (ask.kind === 'summarise') {
    return ask.chapters.flatMap((chapter) => {
      const claim = claimed.find(
        (candidate) => Math.abs(candidate.atMs - chapter.startMs) <= CREATOR_MATCH_MS,
      );
      return claim
        ? [{ startMs: chapter.startMs, title: chapter.title, summary: cut(claim.summary) }]
        : [];
    });
  }
  const inside = claimed
    .filter((claim) => claim.atMs >= ask.fromMs - 1000 && claim.atMs < ask.toMs)
    .slice(0, 2 * ask.count);
  return snapChapters(inside, transcript, endMs).map((chapter) => ({
    ...chapter,
    summary: cut(chapter.summary),
  }));
}
