// The MCP tools' own arguments and answers, where no REST route has them already (get_summary,
// get_transcript, get_collection, ask_collection): summarize_video and summarize_collection take
// and answer exactly the REST bodies. The
// JSON-RPC messages of the route itself are in messages.ts.
import { questionSchema } from '../ask/schemas';
import { collectionIdSchema } from '../collections/schemas';
import * as z from '../schema';
import { jobIdSchema } from '../summaries/jobs/schemas';
import { transcriptLanguageSchema, videoUrlSchema } from '../youtube/schema';

// ---- get_summary ---------------------------------------------------------------------------

export const getSummaryArgsSchema = z.object({
  id: jobIdSchema.check(
    z.meta({ description: 'The id of a job summarize_video answered with (or GET /summaries)' }),
  ),
});

// ---- get_collection, ask_collection ------------------------------------------------------

/** A collection's id as the tools take it: any id not the caller's is the 404 of GET. */
const collectionArgSchema = collectionIdSchema.check(
  z.meta({ description: 'The id of a collection summarize_collection answered with' }),
);

export const getCollectionArgsSchema = z.object({ id: collectionArgSchema });

/** POST /collections/{id}/ask's body, with the id its path carries. */
export const askCollectionArgsSchema = z.object({
  id: collectionArgSchema,
  question: questionSchema,
});

// ---- get_transcript ------------------------------------------------------------------------

/**
 * The most characters of text one get_transcript answer carries, its JSON whole (about 6,000
 * tokens): a long video is read in pages (`next_cursor`), so that no answer floods the model's
 * context or outgrows what MCP clients accept from a tool (Claude Code warns past 10,000 tokens,
 * and cuts results at 25,000).
 */
export const TRANSCRIPT_PAGE_CHARACTERS = 24_999;

/** A page's continuation: opaque to clients (a caption's start, and how much of it was given). */
export const transcriptCursorSchema = z
  .string()
  .check(
    z.maxLength(64),
    z.regex(/^[A-Za-z0-9_-]+$/, 'Use a cursor this tool gave, or none.'),
    z.meta({ description: 'next_cursor of the page before: the next page of the same range' }),
  );

const seconds = (description: string) =>
  z.number().check(z.nonnegative(), z.maximum(86_400 * 7), z.meta({ description }));

export const getTranscriptArgsSchema = z
  .object({
    video_url: videoUrlSchema,
    language: z.optional(transcriptLanguageSchema),
    start_seconds: z.optional(
      seconds('From this moment (seconds from the start of the video); by default the start'),
    ),
    end_seconds: z.optional(
      seconds('Up to this moment (seconds from the start of the video); by default the end'),
    ),
    cursor: z.optional(transcriptCursorSchema),
  })
  .check(
    z.refine(
      (args) =>
        args.start_seconds === undefined ||
        args.end_seconds === undefined ||
        args.end_seconds > args.start_seconds,
      { message: 'Use an end_seconds greater than start_seconds.', path: ['end_seconds'] },
    ),
  );

export type TranscriptArgs = z.output<typeof getTranscriptArgsSchema>;

export const transcriptSegmentSchema = z
  .object({
    start_seconds: z.number().check(
      z.nonnegative(),
      z.meta({
        description:
          'When the caption starts, in seconds from the start of the video (milliseconds as decimals)',
        examples: [81.2],
      }),
    ),
    text: z.string(),
  })
  .check(z.meta({ id: 'TranscriptSegment' }));

export const transcriptSchema = z
  .object({
    video_id: z.string(),
    title: z.string(),
    duration_seconds: z
      .nullable(z.int().check(z.nonnegative()))
      .check(z.meta({ description: 'Length of the video; null when YouTube does not say' })),
    language: z.string().check(
      z.meta({
        description:
          'Language of the caption track used, or the one the transcription heard ("und" when unknown)',
      }),
    ),
    auto_generated: z.boolean().check(
      z.meta({
        description:
          "Machine speech recognition: YouTube's automatic track (no punctuation, approximate words), or a transcription",
      }),
    ),
    source: z.enum(['captions', 'transcription']).check(
      z.meta({
        description:
          'Where the transcript comes from: the captions, or a transcription of the audio that a summary of the video made',
      }),
    ),
    segments: z.array(transcriptSegmentSchema).check(
      z.meta({
        description:
          'The captions that start within the range asked for, in order (from the start when no range was given)',
      }),
    ),
    truncated: z.boolean().check(
      z.meta({
        description: `More captions of the range follow than fit one answer (under ${(TRANSCRIPT_PAGE_CHARACTERS + 1).toLocaleString('en')} characters in all): ask again with the same arguments and cursor = next_cursor`,
      }),
    ),
    next_start_seconds: z.nullable(z.number().check(z.nonnegative())).check(
      z.meta({
        description:
          'When truncated, the start of the first caption not wholly in this page (start_seconds for the next page, a caption cut by this page then comes whole); null when not',
      }),
    ),
    next_cursor: z
      .nullable(transcriptCursorSchema)
      .check(z.meta({ description: 'When truncated, the cursor of the next page; null when not' })),
  })
  .check(
    z.meta({
      id: 'Transcript',
      description: "A video's captions with their times, as get_transcript answers them.",
    }),
  );

export type TranscriptPage = z.output<typeof transcriptSchema>;
