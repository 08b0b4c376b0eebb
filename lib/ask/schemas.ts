// The questions area's schemas, one module: what POST /ask takes and answers. The route table
// names them, the OpenAPI document is generated from them, and the key of a cached answer is
// derived from the response schema, so a change of it is never served stale.

import { usedModelSchema } from '../json-schema';
import * as z from '../schema';
import { answerFields, count, videoUrlSchema } from '../summaries/schemas';
import { isBlank } from '../util/text';
import { transcriptLanguageSchema, videoMetadataSchema } from '../youtube/schema';

/** `question`: how long it may be, in characters (code points, as JSON Schema counts them). */
export const QUESTION_LENGTH = { min: 1, max: 500 } as const;

export const questionSchema = z.string().check(
  // Spaces around a question say nothing; a question of spaces alone is empty, and so is one of
  // characters that show nothing (zero-width spaces, fillers, soft hyphens): it would be charged
  // for an answer to nothing.
  z.trim(),
  z.minLength(QUESTION_LENGTH.min, { error: 'Write a question.', abort: true }),
  z.refine((question) => !isBlank(question), { message: 'Write a question.', abort: true }),
  // zod counts UTF-16 units, JSON Schema's maxLength counts characters: an emoji is one.
  z.refine((question) => [...question].length <= QUESTION_LENGTH.max, {
    message: `Shorten the question to at most ${QUESTION_LENGTH.max} characters.`,
  }),
  z.meta({
    description:
      'What you want to know from the video, in any language (1 to 500 characters, at least one of them visible: spaces, zero-width and other invisible characters alone are an empty question). It is read as data, never as instructions.',
    examples: ['What does a kernel do in a convolutional network?'],
    maxLength: QUESTION_LENGTH.max,
    // Something besides spaces (what a pattern can say in every dialect; isBlank says the rest).
    pattern: '\\S',
  }),
);

export const askBodySchema = z
  .object({
    video_url: videoUrlSchema,
    question: questionSchema,
    used_model: z.optional(usedModelSchema).check(
      z.meta({
        description:
          'The model to answer with, written exactly as listed; the server default when absent. The extractive model answers with the passages of the transcript that best match the question, in the speaker’s own words.',
        examples: ['extractive'],
      }),
    ),
    language: z.optional(transcriptLanguageSchema),
  })
  .check(z.meta({ id: 'AskRequest' }));

export const citationSchema = z
  .object({
    text: z.string().check(
      z.meta({
        description:
          'What the video says there: the captions from that moment on, in the speaker’s own words',
      }),
    ),
    start_seconds: z.number().check(
      z.nonnegative(),
      z.meta({
        description:
          'Where the caption that says it starts, in seconds from the start of the video (milliseconds as decimals); always the start of a caption of the transcript',
        examples: [81.2],
      }),
    ),
    url: z.string().check(
      z.meta({
        description:
          'The video at that moment (t= in whole seconds), built by the server from the video id',
        examples: ['https://www.youtube.com/watch?v=py5byOOHZM8&t=81s'],
      }),
    ),
  })
  .check(z.meta({ id: 'Citation' }));

/** What a model was given to answer from. */
export const ASK_CONTEXTS = ['whole', 'passages'] as const;

export const askResponseSchema = z
  .object({
    answer: z.string().check(
      z.meta({
        description:
          'The answer, with [m:ss] marks at the moments it cites (each one a citation); when the video does not seem to address the question, a sentence saying so',
      }),
    ),
    citations: z.array(citationSchema).check(
      z.meta({
        description:
          'The moments of the video the answer rests on, in the order the answer cites them; empty when the video does not seem to address the question',
      }),
    ),
    metadata: z
      .extend(videoMetadataSchema, {
        question: z
          .string()
          .check(z.meta({ description: 'The question, as asked (without surrounding spaces)' })),
        answered: z.boolean().check(
          z.meta({
            description:
              'false when the video does not seem to address the question (then citations is empty)',
          }),
        ),
        transcript_language: answerFields.transcript_language,
        transcript_auto_generated: answerFields.transcript_auto_generated,
        transcript_word_count: answerFields.transcript_word_count,
        transcript_client: answerFields.transcript_client,
        transcript_source: answerFields.transcript_source,
        transcript_timing: answerFields.transcript_timing,
        model: answerFields.model,
        model_id: answerFields.model_id,
        context: z.enum(ASK_CONTEXTS).check(
          z.meta({
            description:
              'What the answer was made from: the whole transcript, or the passages that best match the question (the extractive model, and a transcript too long for the model’s context)',
          }),
        ),
        passages: count().check(
          z.meta({ description: 'Passages of the transcript read (0 with the whole transcript)' }),
        ),
        cached: answerFields.cached,
        input_tokens: answerFields.input_tokens,
        output_tokens: answerFields.output_tokens,
        estimated_cost_usd: answerFields.estimated_cost_usd,
        elapsed_ms: answerFields.elapsed_ms,
        generated_at: z
          .string()
          .check(z.meta({ description: 'When the answer was made (ISO 8601)' })),
      })
      .check(
        z.meta({
          id: 'AskMetadata',
          description: 'About the video, its transcript and how the answer was made.',
        }),
      ),
  })
  .check(z.meta({ id: 'AskResponse' }));

/** A validated request body of POST /ask. */
export type AskRequest = z.output<typeof askBodySchema>;

/** The body of POST /ask's 200 (and what the cache keeps). */
export type AskResponse = z.output<typeof askResponseSchema>;

/** A citation as the API shows it. */
export type Citation = z.output<typeof citationSchema>;
