// The contract every summarizer (offline extractive, Bedrock, OpenAI-compatible) implements.
import type { Transcript, VideoMetadata } from '../youtube/types';
import type { KeyPoint } from './key-points';

export interface SummarizeInput {
  transcript: Transcript;
  metadata: VideoMetadata;
  /** Target length of the summary, in words. */
  targetWords: number;
  /** Language tag the summary is to be written in; absent: the transcript's language. */
  summaryLanguage?: string;
  /** Whether to find key points (they cost tokens with a model); default true. */
  keyPoints?: boolean;
  /** Aborted when the request's own deadline passes. */
  signal: AbortSignal;
}

export interface SummaryResult {
  summary: string;
  /** In video order, each at the start of a caption of the transcript; empty when not asked. */
  keyPoints: KeyPoint[];
  /** How many parts the transcript was summarised in (1 when it fit at once). */
  chunks: number;
  /** Token usage when the model reports it; null for the offline summarizer. */
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface Summarizer {
  summarize(input: SummarizeInput): Promise<SummaryResult>;
}
