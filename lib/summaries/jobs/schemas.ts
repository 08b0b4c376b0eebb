// The summary jobs' schemas: a summary that is not ready within POST /summarize's wait becomes a
// job (GET /summaries/{id}, GET /summaries): its id, where it stands, and in the end the very
// body (or problem) a direct call would have answered. The request and answer of POST /summarize
// itself are the area's schemas.
import { problemSchema } from '../../problems/schema';
import * as z from '../../schema';
import { RANDOM_ID_PATTERN } from '../../util/random-id';
import { count, summarizeResponseSchema } from '../schemas';
import { JOB_STATUSES } from './job-states';

// Where a job stands (`status`, JOB_STATUSES): one vocabulary from the store to the API.

/** Where the making of its summary stands. */
export const JOB_STAGES = [
  'queued',
  'transcript',
  'transcribing',
  'summarizing',
  'combining',
  'done',
] as const;
export type JobStage = (typeof JOB_STAGES)[number];

/** Job ids: 22 URL-safe characters (128 random bits). Anything else is an unknown job. */
export const JOB_ID_PATTERN = RANDOM_ID_PATTERN;

export const jobIdSchema = z
  .string()
  .check(
    z.maxLength(64),
    z.meta({ description: 'The job id (from Location)', examples: ['c2hvcnQtaWQtZXhhbXBsZQ'] }),
  );

export const jobProgressSchema = z
  .object({
    stage: z.enum(JOB_STAGES).check(
      z.meta({
        description:
          'queued (waiting for a worker), transcript (fetching it from YouTube), transcribing (a video without captions: downloading and transcribing its audio), summarizing (the parts), combining (their summaries into one), done',
      }),
    ),
    parts_done: count().check(
      z.meta({
        description:
          'Parts summarised so far (while transcribing: parts of the audio transcribed so far)',
      }),
    ),
    parts_total: count().check(
      z.meta({
        description:
          'Parts the transcript is summarised in (1 when it fits the model at once; while transcribing: parts the audio is transcribed in); 0 until known',
      }),
    ),
  })
  .check(z.meta({ id: 'JobProgress' }));

/** The request a job was made from, as the server read it (defaults filled in). */
export const jobRequestSchema = z
  .object({
    video_url: z.string(),
    summary_length: count(),
    used_model: z.string().check(z.meta({ description: 'The model name (the default resolved)' })),
    language: z.optional(z.string()),
    summary_language: z.optional(z.string()),
    include_key_points: z.boolean(),
    include_chapters: z.boolean(),
  })
  .check(z.meta({ id: 'SummaryJobRequest' }));

/** The video a job summarises: its id at once, its title once the run has fetched the video. */
export const jobVideoSchema = z
  .object({
    video_id: z
      .string()
      .check(z.meta({ description: 'The YouTube video id', examples: ['py5byOOHZM8'] })),
    title: z.nullable(z.string()).check(
      z.meta({
        description:
          "The video's title, from the summarizing stage on (the run has fetched the video); null before, and for a job that ended before",
      }),
    ),
  })
  .check(z.meta({ id: 'SummaryJobVideo' }));

export const jobSchema = z
  .object({
    id: z.string(),
    status: z.enum(JOB_STATUSES),
    progress: jobProgressSchema,
    request: jobRequestSchema,
    video: jobVideoSchema,
    result: z
      .nullable(summarizeResponseSchema)
      .check(
        z.meta({ description: 'When done: exactly the body POST /summarize answers with 200' }),
      ),
    error: z.nullable(problemSchema).check(
      z.meta({
        description:
          'When failed: the problem a direct call would have answered (same type, status and detail)',
      }),
    ),
    created_at: z.string().check(z.meta({ description: 'ISO 8601' })),
    updated_at: z.string().check(z.meta({ description: 'ISO 8601' })),
  })
  .check(
    z.meta({
      id: 'SummaryJob',
      description:
        'A summary being made (or made) for the caller. Poll GET /summaries/{id} until status is done, failed or cancelled.',
    }),
  );

/** At most this many jobs per page of GET /summaries. */
export const JOB_PAGE = { default: 20, max: 100 } as const;

export const jobListQuerySchema = z.object({
  limit: z._default(
    z.coerce.number().check(z.int(), z.minimum(1), z.maximum(JOB_PAGE.max)),
    JOB_PAGE.default,
  ),
  cursor: z.optional(
    z
      .string()
      .check(
        z.maxLength(512),
        z.meta({ description: 'next_cursor of the previous page (opaque)' }),
      ),
  ),
});

export const jobListSchema = z
  .object({
    items: z.array(jobSchema).check(z.meta({ description: "The caller's jobs, newest first" })),
    next_cursor: z
      .nullable(z.string())
      .check(z.meta({ description: 'Pass as cursor for the next page; null on the last page' })),
  })
  .check(z.meta({ id: 'SummaryJobList' }));
