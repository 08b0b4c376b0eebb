// The collections area's schemas: a playlist or a channel summarized as one (POST /collections,
// GET /collections[/{id}], DELETE /collections/{id}, POST /collections/{id}/ask). The route table
// names them and the OpenAPI document is generated from them; the page and the MCP tools read
// the same shapes.
import { citationSchema, questionSchema } from '../ask/schemas';
import { usedModelSchema } from '../json-schema';
import { problemSchema } from '../problems/schema';
import * as z from '../schema';
import { JOB_STATUSES } from '../summaries/jobs/job-states';
import { SUMMARY_LENGTH } from '../summaries/limits';
import { count, summaryLanguageSchema } from '../summaries/schemas';
import { RANDOM_ID_PATTERN } from '../util/random-id';
import { COLLECTION_LIMIT } from './limits';

export { COLLECTION_LIMIT };

/** A collection URL's longest accepted form (a video URL's, and a list id besides). */
export const MAX_COLLECTION_URL_LENGTH = 2_048;

/** Collection ids: what randomId() makes (22 URL-safe characters). */
export const COLLECTION_ID_PATTERN = RANDOM_ID_PATTERN;

export const COLLECTION_KINDS = ['playlist', 'channel'] as const;
export type CollectionKind = (typeof COLLECTION_KINDS)[number];

/** Where a collection stands: a summary job's statuses. */
export const COLLECTION_STATUSES = JOB_STATUSES;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

/** Where one of its videos stands: a summary job's statuses, and skipped (never summarizable). */
export const COLLECTION_VIDEO_STATUSES = [...JOB_STATUSES, 'skipped'] as const;
export type CollectionVideoStatus = (typeof COLLECTION_VIDEO_STATUSES)[number];

/** Why an entry of a playlist or channel is skipped. */
export const SKIP_REASONS = ['private', 'deleted', 'members-only', 'unavailable'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const collectionIdSchema = z.string().check(
  z.maxLength(64),
  z.meta({
    description: 'The collection id (from Location)',
    examples: ['Y29sbGVjdGlvbi1pZC1lQQ'],
  }),
);

export const collectionBodySchema = z
  .object({
    url: z.string().check(
      z.trim(),
      z.minLength(1, { error: 'Fill in this field.' }),
      z.maxLength(MAX_COLLECTION_URL_LENGTH),
      z.meta({
        description:
          'A playlist (youtube.com/playlist?list=PL…, OLAK5uy_… albums, course playlists, or a watch URL with list=) or a channel (youtube.com/@handle, /channel/UC…, /c/name, /user/name: its latest uploads, newest first). Mixes (list=RD…) are made for one viewer and cannot be read: 422.',
        examples: ['https://www.youtube.com/playlist?list=PLBCF2DAC6FFB574DE'],
      }),
    ),
    summary_length: z
      ._default(
        z.int().check(z.minimum(SUMMARY_LENGTH.min), z.maximum(SUMMARY_LENGTH.max)),
        SUMMARY_LENGTH.default,
      )
      .check(
        z.meta({
          description:
            'Target length of each video’s summary, and of the overview, in words (as POST /summarize’s)',
          examples: [200],
        }),
      ),
    used_model: z.optional(usedModelSchema).check(
      z.meta({
        description:
          'The model to summarise each video and make the overview with, written exactly as listed; the server default when absent.',
        examples: ['extractive'],
      }),
    ),
    summary_language: z.optional(summaryLanguageSchema),
    limit: z
      ._default(
        z.int().check(z.minimum(COLLECTION_LIMIT.min), z.maximum(COLLECTION_LIMIT.max)),
        COLLECTION_LIMIT.default,
      )
      .check(
        z.meta({
          description:
            'How many videos to read: the first of a playlist, the latest of a channel (1 to 200; pages are followed until the limit)',
          examples: [25],
        }),
      ),
  })
  .check(z.meta({ id: 'CollectionRequest' }));

export const collectionVideoSchema = z
  .object({
    video_id: z.string().check(z.meta({ examples: ['py5byOOHZM8'] })),
    title: z
      .string()
      .check(z.meta({ description: 'The title as the playlist or channel lists it' })),
    url: z.string().check(z.meta({ description: 'The video on YouTube' })),
    status: z.enum(COLLECTION_VIDEO_STATUSES).check(
      z.meta({
        description:
          'queued (not started), running, done (its summary is at summary_id), failed (error says why; the collection goes on), cancelled (the collection was cancelled before it started), skipped (private, deleted, members-only or unavailable: reason says which)',
      }),
    ),
    summary_id: z.nullable(z.string()).check(
      z.meta({
        description:
          'Its summary job (GET /summaries/{id}), once started: the summary itself is its result',
      }),
    ),
    reason: z
      .nullable(z.enum(SKIP_REASONS))
      .check(z.meta({ description: 'Why it was skipped (status skipped), else null' })),
    error: z
      .nullable(problemSchema)
      .check(
        z.meta({ description: 'When failed: the problem POST /summarize would have answered' }),
      ),
  })
  .check(z.meta({ id: 'CollectionVideo' }));

// A new object of the same fields: z.extend would keep citationSchema's id (zod's metadata
// follows a schema's parent), and the document would get two different schemas named Citation.
export const collectionCitationSchema = z
  .object({
    ...citationSchema.shape,
    video_id: z.string().check(z.meta({ description: 'The video the moment is in' })),
  })
  .check(z.meta({ id: 'CollectionCitation' }));

export const themeSchema = z
  .object({
    title: z.string(),
    summary: z.string().check(z.meta({ description: 'A few sentences' })),
    citations: z.array(collectionCitationSchema).check(
      z.meta({
        description:
          'Moments of the collection’s videos the theme rests on, each checked against that video’s transcript',
      }),
    ),
  })
  .check(z.meta({ id: 'CollectionTheme' }));

export const overviewSchema = z
  .object({
    summary: z
      .string()
      .check(z.meta({ description: 'The whole collection in about summary_length words' })),
    word_count: count(),
    themes: z.array(themeSchema).check(
      z.meta({
        description: 'What the videos share: 3 to 8 themes (fewer for a few short videos)',
      }),
    ),
    model: z.string().check(z.meta({ description: 'The model that made it' })),
    videos: count().check(z.meta({ description: 'Summaries it was made from' })),
    input_tokens: z.nullable(count()),
    output_tokens: z.nullable(count()),
    generated_at: z.string().check(z.meta({ description: 'ISO 8601' })),
  })
  .check(z.meta({ id: 'CollectionOverview' }));

export const collectionSchema = z
  .object({
    id: z.string(),
    kind: z.enum(COLLECTION_KINDS),
    title: z.string(),
    author: z.string().check(z.meta({ description: 'The playlist’s owner, or the channel' })),
    url: z.string().check(z.meta({ description: 'The playlist or channel on YouTube' })),
    status: z.enum(COLLECTION_STATUSES).check(
      z.meta({
        description:
          'queued, running (videos being summarized, then the overview), done (overview is set), failed (no video could be summarized, or the overview failed: error says why), cancelled',
      }),
    ),
    progress: z
      .object({
        done: count().check(
          z.meta({ description: 'Videos settled: done, failed, cancelled or skipped' }),
        ),
        total: count(),
      })
      .check(z.meta({ id: 'CollectionProgress' })),
    request: z
      .object({
        summary_length: count(),
        used_model: z.string(),
        summary_language: z.nullable(z.string()),
        limit: count(),
      })
      .check(z.meta({ id: 'CollectionRequestRead', description: 'The request, as read' })),
    more: z.boolean().check(
      z.meta({
        description:
          'The playlist or channel has more videos than were read (limit reached; a channel read from its RSS feed lists only its latest 15)',
      }),
    ),
    videos: z
      .array(collectionVideoSchema)
      .check(z.meta({ description: 'In the source’s order (a channel’s: newest first)' })),
    overview: z.nullable(overviewSchema).check(z.meta({ description: 'When done' })),
    error: z.nullable(problemSchema).check(z.meta({ description: 'When failed' })),
    created_at: z.string().check(z.meta({ description: 'ISO 8601' })),
    updated_at: z.string().check(z.meta({ description: 'ISO 8601' })),
  })
  .check(
    z.meta({
      id: 'Collection',
      description:
        'A playlist or channel being summarized for the caller: each video an ordinary summary job, then an overview. Poll GET /collections/{id} until status is done, failed or cancelled.',
    }),
  );

/** At most this many collections per page of GET /collections. */
export const COLLECTION_PAGE = { default: 20, max: 100 } as const;

export const collectionListQuerySchema = z.object({
  limit: z._default(
    z.coerce.number().check(z.int(), z.minimum(1), z.maximum(COLLECTION_PAGE.max)),
    COLLECTION_PAGE.default,
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

export const collectionListSchema = z
  .object({
    items: z
      .array(collectionSchema)
      .check(z.meta({ description: "The caller's collections, newest first" })),
    next_cursor: z
      .nullable(z.string())
      .check(z.meta({ description: 'Pass as cursor for the next page; null on the last page' })),
  })
  .check(z.meta({ id: 'CollectionList' }));

export const collectionAskBodySchema = z
  .object({ question: questionSchema })
  .check(z.meta({ id: 'CollectionAskRequest' }));

export const collectionAskResponseSchema = z
  .object({
    answer: z.string().check(
      z.meta({
        description:
          'The answer, with [m:ss] marks at the moments it cites; when no video seems to address the question, a sentence saying so',
      }),
    ),
    citations: z.array(collectionCitationSchema).check(
      z.meta({
        description:
          'The moments the answer rests on, in any of the collection’s videos, in the order the answer cites them',
      }),
    ),
    metadata: z
      .object({
        question: z.string(),
        answered: z.boolean(),
        model: z.string(),
        videos: count().check(z.meta({ description: 'Videos whose transcripts were searched' })),
        passages: count().check(z.meta({ description: 'Passages given to the model, or quoted' })),
        cached: z.boolean(),
        input_tokens: z.nullable(count()),
        output_tokens: z.nullable(count()),
        elapsed_ms: count(),
      })
      .check(z.meta({ id: 'CollectionAskMetadata' })),
  })
  .check(z.meta({ id: 'CollectionAskResponse' }));

export type CollectionRequest = z.output<typeof collectionBodySchema>;
export type CollectionView = z.output<typeof collectionSchema>;
export type CollectionVideoView = z.output<typeof collectionVideoSchema>;
export type Overview = z.output<typeof overviewSchema>;
export type Theme = z.output<typeof themeSchema>;
export type CollectionCitation = z.output<typeof collectionCitationSchema>;
export type CollectionAskResponse = z.output<typeof collectionAskResponseSchema>;
