// The summaries area's schemas: what POST /summarize takes and answers (the job a summary becomes
// when it does not fit one request has its own, in jobs/schemas.ts). The route table names them,
// the OpenAPI document is generated from them, and the summary record's version is derived from
// the response schema (store/records.ts).
import { usedModelSchema } from '../json-schema';
import * as z from '../schema';
import type { HeardTiming } from '../transcription/backend';
import {
  languageTagSchema,
  transcriptLanguageSchema,
  videoMetadataSchema,
  videoUrlSchema,
} from '../youtube/schema';
import type { TranscriptSource } from '../youtube/types';
import { CHAPTER_SOURCES } from './chapters/chapter';
import { SUMMARY_LENGTH } from './limits';

/** Where a transcript comes from (TranscriptSource). */
const TRANSCRIPT_SOURCES = [
  'captions',
  'transcription',
] as const satisfies readonly TranscriptSource[];

/** How a transcript's times were had (HeardTiming). */
const TRANSCRIPT_TIMINGS = ['segments', 'estimated'] as const satisfies readonly HeardTiming[];

export { SUMMARY_LENGTH, videoUrlSchema };

/** The optional `summary_language` field of a summarize request: the summary's language. */
export const summaryLanguageSchema = languageTagSchema('de').check(
  z.meta({
    description:
      'Language to write the summary in (BCP 47, e.g. "de", "pt-BR"); by default the transcript’s. Language models translate; the extractive model cannot and answers 422 summary-language-unsupported when it differs from the transcript’s.',
    // Swagger UI's Try it out sends the examples as they are: with the example video (English)
    // and the extractive model, only the transcript's own language works.
    examples: ['en'],
  }),
);

export const summarizeBodySchema = z
  .object({
    video_url: videoUrlSchema,
    summary_length: z
      ._default(
        z.int().check(z.minimum(SUMMARY_LENGTH.min), z.maximum(SUMMARY_LENGTH.max)),
        SUMMARY_LENGTH.default,
      )
      .check(
        z.meta({
          description:
            'Target length of the summary, in words. A language model makes summaries as long as its context window allows: a longer one is refused with 422 summary-length-unsupported, whose max_summary_length is the longest it can make.',
          examples: [200],
        }),
      ),
    used_model: z.optional(usedModelSchema).check(
      z.meta({
        description:
          'The model to summarise with, written exactly as listed; the server default when absent. Any other name (another case included) gets a 422 listing the allowed ones in allowed_models.',
        examples: ['extractive'],
      }),
    ),
    language: z.optional(transcriptLanguageSchema),
    summary_language: z.optional(summaryLanguageSchema),
    include_key_points: z._default(z.boolean(), true).check(
      z.meta({
        description:
          'Whether the answer carries key_points (they are made and cached either way, so this only shapes the answer)',
      }),
    ),
    include_chapters: z._default(z.boolean(), true).check(
      z.meta({
        description:
          'Whether the answer carries chapters (they are made and cached either way, so this only shapes the answer)',
      }),
    ),
  })
  .check(z.meta({ id: 'SummarizeRequest' }));

export const keyPointSchema = z
  .object({
    text: z.string().check(z.meta({ description: 'The point, in one sentence' })),
    start_seconds: z.number().check(
      z.nonnegative(),
      z.meta({
        description:
          'Where the caption that says it starts, in seconds from the start of the video (milliseconds as decimals)',
        examples: [81.2],
      }),
    ),
    url: z.string().check(
      z.meta({
        description: 'The video at that moment (t= in whole seconds)',
        examples: ['https://www.youtube.com/watch?v=py5byOOHZM8&t=81s'],
      }),
    ),
    time_estimated: z.optional(z.literal(true)).check(
      z.meta({
        description:
          'Present when start_seconds is estimated: the transcription service gave no times (metadata.transcript_timing estimated), so the moment is near, not exact',
      }),
    ),
  })
  .check(z.meta({ id: 'KeyPoint' }));

export const chapterSchema = z
  .object({
    start_seconds: z.number().check(
      z.nonnegative(),
      z.meta({
        description:
          'Where the chapter starts, in seconds from the start of the video: 0 for the first; the time the creator wrote, or the start of a caption of the transcript (milliseconds as decimals)',
        examples: [0],
      }),
    ),
    end_seconds: z.number().check(
      z.nonnegative(),
      z.meta({
        description:
          'Where it ends: where the next chapter starts, the last at the end of the video',
        examples: [312.4],
      }),
    ),
    title: z.string().check(
      z.meta({
        description:
          'The title the creator wrote in the description, or a made one of under 80 characters',
        examples: ['Kernel convolutions'],
      }),
    ),
    summary: z.string().check(
      z.meta({
        description: 'What the chapter says, in one to three sentences',
        examples: ['A kernel slides over the image and computes a weighted sum of each pixel.'],
      }),
    ),
    url: z.string().check(
      z.meta({
        description: 'The video at the chapter’s start (t= in whole seconds)',
        examples: ['https://www.youtube.com/watch?v=py5byOOHZM8&t=0s'],
      }),
    ),
  })
  .check(z.meta({ id: 'Chapter' }));

/** A count: an integer, never negative (documented with its minimum, so examples show 0). */
export const count = () => z.int().check(z.nonnegative());
const tokenCount = () => z.nullable(count());

/**
 * Metadata fields every answer made of a transcript carries (a summary's, an answer to a
 * question's): which transcript it read, which model made it, and what that cost.
 */
export const answerFields = {
  transcript_language: z.string().check(
    z.meta({
      description:
        'Language of the caption track used, or the one the transcription heard ("und", BCP 47’s undetermined, when the transcription service did not say)',
    }),
  ),
  transcript_auto_generated: z.boolean().check(
    z.meta({
      description: "Machine speech recognition: YouTube's automatic track, or a transcription",
    }),
  ),
  transcript_word_count: count(),
  transcript_client: z.string().check(
    z.meta({
      description:
        'The InnerTube client whose caption list gave the transcript, or whose audio was transcribed (see YOUTUBE_CLIENTS)',
      examples: ['ANDROID'],
    }),
  ),
  transcript_source: z.enum(TRANSCRIPT_SOURCES).check(
    z.meta({
      description:
        'Where the transcript comes from: the video’s captions, or a transcription of its audio (a video without usable captions, when the deployment transcribes)',
      examples: ['captions'],
    }),
  ),
  transcript_timing: z.enum(TRANSCRIPT_TIMINGS).check(
    z.meta({
      description:
        'How the transcript’s times were had: segments (captions, or a transcription service that timed what it heard) or estimated (a service that gave text only, such as gpt-4o-transcribe: its lines were laid over the audio by their length, so links land near the moment, not on it)',
      examples: ['segments'],
    }),
  ),
  model: z.string().check(z.meta({ description: 'The model name asked for (or the default)' })),
  model_id: z
    .string()
    .check(z.meta({ description: 'Bedrock model or inference profile id; "extractive" offline' })),
  cached: z
    .boolean()
    .check(z.meta({ description: 'Answered from the cache (no YouTube or model call)' })),
  input_tokens: tokenCount(),
  output_tokens: tokenCount(),
  estimated_cost_usd: z
    .number()
    .check(z.nonnegative(), z.meta({ description: 'From the catalog prices and reported tokens' })),
  elapsed_ms: count(),
};

export const summarizeResponseSchema = z
  .object({
    summary: z.string(),
    word_count: count().check(z.meta({ description: 'Words in the summary' })),
    key_points: z.optional(z.array(keyPointSchema)).check(
      z.meta({
        description:
          'The main points with the moment each is said, in video order; every start_seconds is the start of a caption of the transcript. Absent when the request set include_key_points to false; may be empty when the model gave none the transcript bears out.',
      }),
    ),
    chapters: z.optional(z.array(chapterSchema)).check(
      z.meta({
        description:
          'The video’s parts in order, each with its title, a summary and a link to its start: the first starts at 0, each ends where the next starts, the last at the end of the video. The creator’s chapters when the description lists them as YouTube reads them (metadata.chapters_source creator), else made by the language model (model) or offline (offline). Empty for videos under 5 minutes, or a transcript too short to divide. Absent when the request set include_chapters to false.',
      }),
    ),
    metadata: z
      .extend(videoMetadataSchema, {
        transcript_language: answerFields.transcript_language,
        transcript_auto_generated: answerFields.transcript_auto_generated,
        transcript_word_count: answerFields.transcript_word_count,
        summary_language: z.string().check(
          z.meta({
            description:
              'Language the summary is written in: summary_language, or the transcript’s',
            examples: ['en'],
          }),
        ),
        transcript_client: answerFields.transcript_client,
        transcript_source: answerFields.transcript_source,
        transcript_timing: answerFields.transcript_timing,
        model: answerFields.model,
        model_id: answerFields.model_id,
        summary_length_requested: count(),
        cached: answerFields.cached,
        chunks: count().check(z.meta({ description: 'Parts the transcript was summarised in' })),
        chapters_source: z.nullable(z.enum(CHAPTER_SOURCES)).check(
          z.meta({
            description:
              'Where the chapters came from: creator (the description), model (the language model), offline (found in the transcript without a model); null when there are none',
            examples: ['offline'],
          }),
        ),
        input_tokens: answerFields.input_tokens,
        output_tokens: answerFields.output_tokens,
        estimated_cost_usd: answerFields.estimated_cost_usd,
        elapsed_ms: answerFields.elapsed_ms,
        generated_at: z
          .string()
          .check(z.meta({ description: 'When the summary was made (ISO 8601)' })),
      })
      .check(
        z.meta({
          id: 'SummaryMetadata',
          description: 'About the video, its transcript and how the summary was made.',
        }),
      ),
  })
  .check(z.meta({ id: 'SummarizeResponse' }));

/** A validated request body of POST /summarize. */
export type SummarizeRequest = z.output<typeof summarizeBodySchema>;

/** The API's answer: the body of POST /summarize's 200, and a done job's `result`. */
export type SummarizeResponse = z.output<typeof summarizeResponseSchema>;
