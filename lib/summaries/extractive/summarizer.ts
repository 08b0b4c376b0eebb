// The offline summarizer: no network and no model download, so it works anywhere (the default
// locally). It splits the transcript into sentences, scores them without supervision and picks
// a budgeted, non-redundant subset in transcript order.
// This module makes a summary, its key points and chapters of them.

import { UnprocessableError } from '../../errors';
import type { KeyPoint } from '../../transcripts/anchors';
import { runInSlices, type Steps } from '../../util/cooperative';
import { countWords } from '../../util/words';
import type { Transcript } from '../../youtube/types';
import { type Chapters, chaptersOfVideo, NO_CHAPTERS, videoEndMs } from '../chapters/chapter';
import { offlineChapters, type RankedSentence } from '../chapters/offline';
import { keyPointCount } from '../key-points';
import type { SummarizeInput, Summarizer, SummaryResult } from '../types';
import { analyse } from './ranking';
import { joinParts, type Selection, select } from './selection';
import { split, type TimedSentence } from './sentences';

/**
 * Key points of an extractive summary: its best-scored sentences that say something, each at
 * the start of the caption line where it begins, in video order.
 */
function keyPointsOf(selection: Selection, sentences: TimedSentence[], count: number): KeyPoint[] {
  const { parts, scores, saying } = selection;
  return [...parts.keys()]
    .filter((index) => saying[index])
    .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0))
    .slice(0, count)
    .sort((a, b) => a - b)
    .map((index) => ({ text: parts.get(index) ?? '', startMs: sentences[index]?.startMs ?? 0 }));
}

/** The sentences with what the offline chapters read of them. */
function rankedOf(
  sentences: readonly TimedSentence[],
  analysis: { terms: string[][]; scores: number[] },
): RankedSentence[] {
  return sentences.map((sentence, i) => ({
    text: sentence.text,
    startMs: sentence.startMs,
    terms: analysis.terms[i] ?? [],
    score: analysis.scores[i] ?? 0,
    words: countWords(sentence.text),
  }));
}

/**
 * A transcript's sentences, timed and scored as the summary ranks them: what chapters are made
 * and summarised from offline when a model made the summary (chapters/finish.ts).
 */
export function* rankTranscript(transcript: Transcript): Steps<RankedSentence[]> {
  const sentences = yield* split(transcript);
  const analysis = yield* analyse(sentences.map((sentence) => sentence.text));
  return rankedOf(sentences, analysis);
}

function* summaryOf(
  input: Pick<SummarizeInput, 'transcript' | 'metadata' | 'targetWords' | 'keyPoints' | 'chapters'>,
): Steps<{ summary: string; keyPoints: KeyPoint[]; chapters: Chapters }> {
  const { transcript, metadata, targetWords } = input;
  const sentences = yield* split(transcript);
  const selection = yield* select(
    sentences.map((sentence) => sentence.text),
    targetWords,
  );
  const endMs = videoEndMs(transcript, metadata);
  const chapters =
    input.chapters === false
      ? NO_CHAPTERS
      : yield* offlineChapters(
          rankedOf(sentences, selection),
          endMs,
          chaptersOfVideo(metadata.description, endMs),
        );
  return {
    summary: joinParts(selection.parts),
    keyPoints:
      input.keyPoints === false
        ? []
        : keyPointsOf(selection, sentences, keyPointCount(targetWords)),
    chapters,
  };
}

/** Whether a summary in `wanted` (absent: any) can be made of a transcript in `transcript`. */
function sameLanguage(wanted: string | undefined, transcript: string): boolean {
  const primary = (tag: string) => tag.split('-')[0]?.toLowerCase();
  return wanted === undefined || primary(wanted) === primary(transcript);
}

/**
 * The offline summarizer (`extractive`): one chunk, no token usage. It works in slices of a few
 * milliseconds, so the process keeps serving other requests meanwhile (a 3-hour transcript is
 * ~100 ms of CPU), and throws the signal's reason if it aborts.
 */
export function createExtractiveSummarizer(): Summarizer {
  return {
    async summarize(input: SummarizeInput): Promise<SummaryResult> {
      const { transcript, signal } = input;
      if (!sameLanguage(input.summaryLanguage, transcript.language)) {
        throw new UnprocessableError(
          'summary-language-unsupported',
          'Summary language not supported',
          `The extractive model picks sentences of the transcript and cannot translate: the ` +
            `transcript is in "${transcript.language}", not "${input.summaryLanguage}". Ask ` +
            'for that language, or choose a language model (used_model).',
        );
      }
      const result = await runInSlices(summaryOf(input), signal);
      return { ...result, chunks: 1, inputTokens: null, outputTokens: null };
    },
  };
}
