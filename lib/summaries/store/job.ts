// What a summary job is: a user's handle on a summary record, with the request it was made
// from, where it stands, and once settled its outcome (the summary as asked, or the problem).
import type { StoredProblem } from '../../problems/codec';
import type { JobState } from '../jobs/job-states';
import type { JobStage } from '../jobs/schemas';
import type { SummarizeResponse } from '../schemas';

/** The request a job was made from (the API's SummaryJobRequest). */
export interface JobRequest {
  video_url: string;
  summary_length: number;
  used_model: string;
  language?: string;
  summary_language?: string;
  include_key_points: boolean;
  include_chapters: boolean;
}

export interface JobProgress {
  stage: JobStage;
  parts_done: number;
  parts_total: number;
}

export interface Job {
  id: string;
  userId: string;
  /** The summary record it is a handle on. */
  key: string;
  request: JobRequest;
  status: JobState;
  /** Whether it waits for a run another job started (its answer is then marked cached). */
  shared: boolean;
  /** Where the run stood when the job was settled or cancelled. */
  progress?: JobProgress;
  /** The request that created it. */
  requestId: string;
  createdAt: number;
  updatedAt: number;
  /** When done: the answer, as POST /summarize gives it to this job's request. */
  result?: SummarizeResponse;
  /** When failed. */
  problem?: StoredProblem;
  /** The video's title as its run last knew it, kept when the job failed or was cancelled. */
  title?: string;
  /** The collection this job is a video of (its driver is told when the job is settled). */
  collection?: string;
}

/** What settles a running job (with the video's title when the run got that far). */
export type JobOutcome =
  | { status: 'done'; result: SummarizeResponse; progress: JobProgress }
  | { status: 'failed'; problem: StoredProblem; progress: JobProgress; title?: string };
