// The summaries area's routes: POST /summarize, and the jobs it makes (GET /summaries,
// GET and DELETE /summaries/{id}), with the area's own schemas.
import { NotFoundError, ValidationError } from '../errors';
import * as z from '../schema';
import {
  JOB_ID_PATTERN,
  jobIdSchema,
  jobListQuerySchema,
  jobListSchema,
  jobSchema,
} from '../summaries/jobs/schemas';
import { summarizeBodySchema, summarizeResponseSchema } from '../summaries/schemas';
import { handled, type RouteDef, route, withBody } from './route';
import { videoAndModel } from './video';

/**
 * A job's id in a path: what randomId() makes, anything else names no job (the route's 404). The
 * MCP tool get_summary takes jobIdSchema itself, and answers a made-up id its own way.
 */
const jobPathIdSchema = jobIdSchema.check(z.regex(JOB_ID_PATTERN));

export const summaryRoutes = {
  summarize: route({
    method: 'POST',
    path: '/summarize',
    function: 'summarize',
    auth: true,
    tag: 'summaries',
    summary: 'Summarise the transcript of a YouTube video',
    description:
      "Fetches the video's captions and metadata, and summarises the transcript in about summary_length words with the chosen model. Answers 200 with the summary when it is ready within the wait (a cached summary, the extractive model, a short video); otherwise 202 with a job to poll at Location (GET /summaries/{id}). The wait follows RFC 7240: `Prefer: respond-async` answers 202 at once, `Prefer: wait=N` waits at most N seconds, otherwise the server's wait (SUMMARIZE_WAIT_MS, 20 s by default). Identical requests share one summary; a cached one does not count against the daily quota.",
    body: { schema: summarizeBodySchema, contentTypes: ['application/json'] },
    headers: {
      Prefer: {
        description:
          'RFC 7240: `respond-async` (answer 202 with the job at once unless the summary is ready), `wait=N` (wait at most N seconds for the summary). Preference-Applied says which were honoured.',
        examples: ['respond-async', 'wait=5', 'respond-async, wait=2'],
      },
    },
    responses: {
      200: {
        description:
          'The summary (ready within the wait); Content-Location names its job in GET /summaries',
        schema: summarizeResponseSchema,
        headers: { 'Content-Location': 'always', 'Preference-Applied': 'sometimes' },
      },
      202: {
        description:
          'Not ready within the wait: the job, to poll at Location (after Retry-After seconds) until it is done',
        schema: jobSchema,
        headers: { Location: 'always', 'Retry-After': 'always', 'Preference-Applied': 'sometimes' },
      },
      ...withBody,
      ...videoAndModel,
      429: {
        description:
          'Daily quota used up (quota-exceeded), or, for a video without captions, the daily budget of transcribed minutes (transcription-budget-exceeded); see Retry-After',
        example: videoAndModel[429].example,
      },
      502: {
        description:
          'YouTube, the model or the transcription service (transcription-error; transcription-misconfigured when its operator must change its setup) answered with something unusable, or the model is not enabled',
      },
      422: {
        description:
          'Invalid fields, unknown model, a summary_length the model cannot make (summary-length-unsupported, with max_summary_length), or a video without usable captions that is not transcribed (captions-disabled; with transcription: video-too-long-to-transcribe, transcription-too-large, transcription-rejected)',
        example: new ValidationError([
          {
            field: 'video_url',
            message:
              'Use a link to a YouTube video (youtube.com or youtu.be) or its 11-character ID.',
          },
        ]),
      },
      503: {
        description:
          'YouTube blocked us, the model is throttled, the model named is misconfigured on this server (server-misconfigured, with allowed_models), or the job could not be queued; see Retry-After',
      },
      504: {
        description:
          'YouTube, the model or a transcription job (transcription-timeout) did not finish in time',
      },
    },
  }),
  listSummaries: route({
    method: 'GET',
    path: '/summaries',
    function: 'summaries',
    auth: true,
    tag: 'summaries',
    summary: "The caller's summary jobs, newest first (their history)",
    description:
      'Every summary the caller asked for with POST /summarize, finished or not, newest first, one page at a time (limit, then next_cursor). A job created a moment ago may take a moment to appear.',
    query: jobListQuerySchema,
    responses: {
      200: { description: 'A page of jobs', schema: jobListSchema },
      ...handled,
      422: {
        description: 'Invalid limit or cursor (see errors)',
        example: new ValidationError([{ field: 'limit', message: 'Use at most 100.' }]),
      },
    },
  }),
  getSummary: route({
    method: 'GET',
    path: '/summaries/{id}',
    function: 'summaries',
    auth: true,
    tag: 'summaries',
    summary: 'A summary job: where it stands, then its summary or its problem',
    description:
      "Poll until status is done (result is the summary, exactly as POST /summarize answers it), failed (error is the problem a direct call would have answered) or cancelled. Only the job's owner sees it.",
    params: { id: jobPathIdSchema },
    responses: {
      200: {
        description: 'The job; Retry-After says when to look again while it is unfinished',
        schema: jobSchema,
        headers: { 'Retry-After': 'sometimes' },
      },
      ...handled,
      404: {
        description: 'No such job of yours',
        example: new NotFoundError('No such summary job.'),
      },
    },
  }),
  cancelSummary: route({
    method: 'DELETE',
    path: '/summaries/{id}',
    function: 'summaries',
    auth: true,
    tag: 'summaries',
    summary: 'Cancel an unfinished summary job, or remove a finished one from the history',
    description:
      'An unfinished job is cancelled (200, status cancelled): no model call starts for it after this; a summary other jobs still wait for goes on for them. A finished job is removed from GET /summaries (204). A cancelled job still counts against the daily quota.',
    params: { id: jobPathIdSchema },
    responses: {
      200: { description: 'Cancelled: the job as it now stands', schema: jobSchema },
      204: { description: 'Removed from the history' },
      ...handled,
      404: {
        description: 'No such job of yours',
        example: new NotFoundError('No such summary job.'),
      },
    },
  }),
} as const satisfies Record<string, RouteDef>;
