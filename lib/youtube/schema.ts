// zod schemas for what the YouTube module exposes through the API: the OpenAPI document is
// generated from these, and types.ts takes its types from them.
import * as z from 'zod';
import { VIDEO_ID_PATTERN } from './url';

/** A caption language tag (BCP 47-ish): a 2-3 letter language, then subtags. */
export const LANGUAGE_TAG_PATTERN = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

const count = (description: string) =>
  z.number().int().nonnegative().nullable().meta({ description });

export const videoMetadataSchema = z
  .object({
    video_id: z
      .string()
      .regex(VIDEO_ID_PATTERN)
      .meta({ description: 'The 11-character YouTube video ID.', examples: ['GJLlxj_dtq8'] }),
    title: z.string().meta({ description: 'Video title.' }),
    channel_title: z.string().meta({ description: 'Name of the channel that uploaded the video.' }),
    channel_id: z.string().meta({ description: 'YouTube channel ID (starts with "UC").' }),
    duration_seconds: count('Length of the video in seconds; null when YouTube does not say.'),
    view_count: count('View count when fetched; null when YouTube does not say.'),
    description: z.string().meta({ description: 'Video description (may be empty).' }),
    thumbnail_url: z
      .string()
      .nullable()
      .meta({ description: 'URL of the largest thumbnail on i.ytimg.com; null when unknown.' }),
    published_at: z.string().nullable().meta({
      description:
        'Publish date (ISO 8601 date, or date-time when YOUTUBE_API_KEY is set); null when unknown.',
    }),
    like_count: count('Like count; only with YOUTUBE_API_KEY set (and likes public), else null.'),
    comment_count: count('Comment count; only with YOUTUBE_API_KEY set, else null.'),
  })
  .meta({ description: 'What YouTube says about the video.' });

/** The optional `language` field of a summarize request: which caption track to use. */
export const transcriptLanguageSchema = z
  .string()
  .max(35)
  .regex(LANGUAGE_TAG_PATTERN, 'Must be a language code such as "en" or "pt-BR".')
  .meta({
    description:
      'Caption language to summarise (BCP 47, e.g. "en", "pt-BR"). By default manual captions beat automatic ones and English is preferred.',
    examples: ['en'],
  });
