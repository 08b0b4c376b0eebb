// zod schemas for what the YouTube module exposes through the API: the OpenAPI document is
// generated from these, and types.ts takes its types from them.
import * as z from '../schema';
import { MAX_VIDEO_URL_LENGTH, VIDEO_ID_PATTERN, VIDEO_URL_PATTERN } from './url';

/**
 * The `video_url` field of a request (POST /summarize, the MCP tools). The video link
 * parser reads it (and says why when it refuses); the pattern documents the forms it accepts.
 */
export const videoUrlSchema = z.string().check(
  z.maxLength(MAX_VIDEO_URL_LENGTH),
  z.meta({
    description:
      'A YouTube link (watch, youtu.be, shorts, embed, live...) or an 11-character video ID',
    examples: ['https://www.youtube.com/watch?v=GJLlxj_dtq8'],
    pattern: VIDEO_URL_PATTERN,
  }),
);

/** A caption language tag (BCP 47-ish): a 2-3 letter language, then subtags. */
const LANGUAGE_TAG_PATTERN = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

const count = (description: string) =>
  z.nullable(z.int().check(z.nonnegative())).check(z.meta({ description }));

const described = (description: string) => z.string().check(z.meta({ description }));

export const videoMetadataSchema = z
  .object({
    video_id: z
      .string()
      .check(
        z.regex(VIDEO_ID_PATTERN),
        z.meta({ description: 'The 11-character YouTube video ID.', examples: ['GJLlxj_dtq8'] }),
      ),
    title: described('Video title.'),
    channel_title: described('Name of the channel that uploaded the video.'),
    channel_id: described('YouTube channel ID (starts with "UC").'),
    duration_seconds: count('Length of the video in seconds; null when YouTube does not say.'),
    view_count: count('View count when fetched; null when YouTube does not say.'),
    description: described('Video description (may be empty).'),
    thumbnail_url: z
      .nullable(z.string())
      .check(
        z.meta({ description: 'URL of the largest thumbnail on i.ytimg.com; null when unknown.' }),
      ),
    published_at: z.nullable(z.string()).check(
      z.meta({
        description:
          'Publish date (ISO 8601 date, or date-time when YOUTUBE_API_KEY is set); null when unknown.',
      }),
    ),
    like_count: count('Like count; only with YOUTUBE_API_KEY set (and likes public), else null.'),
    comment_count: count('Comment count; only with YOUTUBE_API_KEY set, else null.'),
  })
  .check(z.meta({ description: 'What YouTube says about the video.' }));

/** A language field of a request: a tag of at most 35 characters, such as `example`. */
export const languageTagSchema = (example: string) =>
  z
    .string()
    .check(
      z.maxLength(35),
      z.regex(LANGUAGE_TAG_PATTERN, `Must be a language code such as "${example}" or "pt-BR".`),
    );

/** The optional `language` field of a summarize request: which caption track to use. */
export const transcriptLanguageSchema = languageTagSchema('en').check(
  z.meta({
    description:
      'Caption language to summarise (BCP 47, e.g. "en", "pt-BR"). By default manual captions beat automatic ones and English is preferred.',
    examples: ['en'],
  }),
);
