// The contract every summarizer (offline extractive, Bedrock, OpenAI-compatible) implements.

import type { KeyPoint } from '../transcripts/anchors';
import type { Transcript, VideoMetadata } from '../youtube/types';
import type { ChapterStart, Chapters } from './chapters/chapter';

/** What one finished model call gave: a part's summary, a combination, or the whole. */
export interface CallResult {
  summary: string;
  keyPoints: KeyPoint[];
  /** The chapters the call was asked for, checked against the transcript (absent: none). */
  chapters?: ChapterStart[];
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * How a summarizer works inside a job: what earlier runs of the same summary finished, where it
 * stands, and whether it should go on. Absent, a summary is made in one go.
 */
export interface JobHooks {
  /** A call an earlier run of this summary finished (by its call key), or undefined. */
  recall(callKey: string): CallResult | undefined;
  /** Keeps a finished call (`part`: one of the transcript's parts, which counts as progress). */
  remember(callKey: string, result: CallResult, part: boolean): Promise<void>;
  /** The stage reached, the parts the transcript is summarised in, and how many are done. */
  progress(
    stage: 'summarizing' | 'combining',
    partsTotal: number,
    partsDone: number,
  ): Promise<void>;
  /** Asked before every model call: throws when no further call may start (cancelled). */
  beforeCall(): Promise<void>;
}

export interface SummarizeInput {
  transcript: Transcript;
  metadata: VideoMetadata;
  /** Target length of the summary, in words. */
  targetWords: number;
  /** Language tag the summary is to be written in; absent: the transcript's language. */
  summaryLanguage?: string;
  /** Whether to find key points (they cost tokens with a model); default true. */
  keyPoints?: boolean;
  /** Whether to make chapters (a model is asked for them in its calls); default true. */
  chapters?: boolean;
  /** Aborted when the request's own deadline (or the job's budget) passes. */
  signal: AbortSignal;
  /** Checkpoints, progress and cancellation of a job. */
  job?: JobHooks;
}

export interface SummaryResult {
  summary: string;
  /** In video order, each at the start of a caption of the transcript; empty when not asked. */
  keyPoints: KeyPoint[];
  /** The video's chapters (none under five minutes, or when not asked). */
  chapters: Chapters;
  /** How many parts the transcript was summarised in (1 when it fit at once). */
  chunks: number;
  /** Token usage when the model reports it; null for the offline summarizer. */
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface Summarizer {
  summarize(input: SummarizeInput): Promise<SummaryResult>;
}
