// A model's summary's chapters, once its calls are done: the creator's (summarised by the calls
// that read them), else the model's own (combined to a count that suits the video), else offline
// ones. What no call summarised is summarised offline from its stretch of the transcript; the
// offline code (and its language model) is loaded only then.

import type { CreatorChapter } from '../../transcripts/creator-chapters';
import { runInSlices } from '../../util/cooperative';
import type { Transcript } from '../../youtube/types';
import {
  type Chapter,
  type ChapterStart,
  type Chapters,
  chapterCount,
  NO_CHAPTERS,
  withEnds,
} from './chapter';
import { combineModelChapters } from './model';
import type { RankedSentence } from './offline';

/** Fewer words than this is no summary of a chapter ("Intro."): it is made offline instead. */
const SUMMARY_MIN_WORDS = 5;

export interface ModelChapterInput {
  transcript: Transcript;
  /** The chapters the calls gave, checked against the transcript, in the calls' order. */
  made: readonly ChapterStart[];
  /** The creator's chapters (the calls summarised those); empty when the description has none. */
  creator: readonly CreatorChapter[];
  endMs: number;
  signal: AbortSignal;
}

const summarised = (chapter: ChapterStart) =>
  chapter.summary.split(/\s+/).filter(Boolean).length >= SUMMARY_MIN_WORDS;

/** The transcript's sentences for the offline code, made once per summary when first needed. */
function sentencesOf(transcript: Transcript, signal: AbortSignal) {
  let ranked: Promise<readonly RankedSentence[]> | undefined;
  return () => {
    ranked ??= import('../extractive/summarizer').then(({ rankTranscript }) =>
      runInSlices(rankTranscript(transcript), signal),
    );
    return ranked;
  };
}

/**
 * The chapters of a summary a model made: the creator's when the description has them, each
 * with the summary a call gave it; else the model's, when at least two are left once combined;
 * else offline ones. Chapters without a summary get one offline.
 */
export async function modelChapters(input: ModelChapterInput): Promise<Chapters> {
  const { transcript, made, creator, endMs, signal } = input;
  const sentences = sentencesOf(transcript, signal);
  const offline = () => import('./offline');
  const complete = async (list: Chapter[]) => {
    if (list.every(summarised)) return list;
    const blank = list.map((chapter) =>
      summarised(chapter) ? chapter : { ...chapter, summary: '' },
    );
    return (await offline()).fillSummaries(await sentences(), blank);
  };

  if (creator.length > 0) {
    const said = new Map(made.map((chapter) => [chapter.startMs, chapter.summary]));
    const starts = creator.map((chapter) => ({
      startMs: chapter.startMs,
      title: chapter.title,
      summary: said.get(chapter.startMs) ?? '',
    }));
    return { source: 'creator', list: await complete(withEnds(starts, endMs)) };
  }
  if (chapterCount(endMs, transcript.wordCount).target === 0) return NO_CHAPTERS;
  const combined = combineModelChapters(made, endMs);
  if (combined.length > 0) return { source: 'model', list: await complete(combined) };
  const { offlineChapters } = await offline();
  return runInSlices(offlineChapters(await sentences(), endMs), signal);
}
