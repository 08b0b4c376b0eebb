// The zod schema of a problem (RFC 9457), as the OpenAPI document describes every 4xx/5xx body
// and a failed summary job's `error`. Kept apart from replies.ts, which every handler bundles
// and which needs no zod.
import * as z from '../schema';
import { BLOCK_REASONS } from '../youtube/errors';
import { OAUTH2_ERRORS } from './replies';

export const problemSchema = z
  .object({
    type: z.string().check(z.meta({ examples: ['urn:tubesum:problem:validation-error'] })),
    title: z.string(),
    status: z.int().check(z.minimum(400), z.maximum(599)),
    detail: z.string(),
    request_id: z
      .string()
      .check(z.meta({ description: 'Also in the X-Request-Id header and the logs' })),
    errors: z
      .optional(z.array(z.object({ field: z.string(), message: z.string() })))
      .check(z.meta({ description: 'Field-level problems (422 validation-error)' })),
    allowed_models: z.optional(z.array(z.string())).check(
      z.meta({
        description:
          'The models this deployment offers (422 for an unknown used_model, 503 server-misconfigured for one it leaves out)',
      }),
    ),
    max_summary_length: z.optional(z.int().check(z.nonnegative())).check(
      z.meta({
        description:
          'The longest summary_length, in words, the model can make (422 summary-length-unsupported)',
      }),
    ),
    available_languages: z.optional(z.array(z.string())).check(
      z.meta({
        description: 'Caption languages the video has (422 transcript-language-unavailable)',
      }),
    ),
    youtube_reason: z.optional(z.string()).check(
      z.meta({
        description:
          "YouTube's own words (404 video-unavailable, 422 age-restricted or video-unplayable)",
      }),
    ),
    max_minutes: z.optional(z.int().check(z.positive())).check(
      z.meta({
        description:
          'The longest video transcribed, in minutes (422 video-too-long-to-transcribe, TRANSCRIPTION_MAX_MINUTES)',
      }),
    ),
    max_mb: z.optional(z.int().check(z.positive())).check(
      z.meta({
        description:
          'The largest audio transcribed, in MB (422 transcription-too-large: TRANSCRIPTION_MAX_MB, or the backend’s TRANSCRIPTION_MAX_UPLOAD_MB)',
      }),
    ),
    backend_reason: z.optional(z.string()).check(
      z.meta({
        description:
          "The transcription service's own words for refusing the audio (422 transcription-rejected)",
      }),
    ),
    block_reason: z
      .optional(z.enum(BLOCK_REASONS))
      .check(z.meta({ description: 'Why YouTube refused this server (503 youtube-blocked)' })),
    error: z
      .optional(z.enum(OAUTH2_ERRORS))
      .check(z.meta({ description: 'OAuth2 error code (POST /token only, RFC 6749 5.2)' })),
    error_description: z
      .optional(z.string())
      .check(z.meta({ description: 'The detail again, for OAuth2 clients (POST /token only)' })),
  })
  .check(z.meta({ id: 'Problem', description: 'RFC 9457 problem details' }));
