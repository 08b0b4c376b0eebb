// The contract every summarizer (offline extractive, Bedrock models) implements.
import type { Transcript, VideoMetadata } from '../youtube/types';

export interface SummarizeInput {
  transcript: Transcript;
  metadata: VideoMetadata;
  /** Target length of the summary, in words. */
  targetWords: number;
  /** Aborted when the request's own deadline passes. */
  signal: AbortSignal;
}

export interface SummaryResult {
  summary: string;
  /** How many parts the transcript was summarised in (1 when it fit at once). */
  chunks: number;
  /** Token usage when the model reports it; null for the offline summarizer. */
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface Summarizer {
  summarize(input: SummarizeInput): Promise<SummaryResult>;
}
