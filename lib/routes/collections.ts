// The collections area's routes: POST /collections (a playlist or a channel summarized as one),
// the caller's collections (GET /collections, GET and DELETE /collections/{id}) and questions
// across a collection's videos (POST /collections/{id}/ask), with the area's own schemas.

import { CollectionBusyError } from '../collections/errors';
import {
  COLLECTION_ID_PATTERN,
  collectionAskBodySchema,
  collectionAskResponseSchema,
  collectionBodySchema,
  collectionIdSchema,
  collectionListQuerySchema,
  collectionListSchema,
  collectionSchema,
} from '../collections/schemas';
import { ConflictError, NotFoundError, TooManyRequestsError, ValidationError } from '../errors';
import * as z from '../schema';
import { handled, type RouteDef, route, withBody } from './route';

/** A collection's id in a path: anything but what randomId() makes names none (the route's 404). */
const collectionPathIdSchema = collectionIdSchema.check(z.regex(COLLECTION_ID_PATTERN));

const notFound = {
  description: 'No such collection of yours',
  example: new NotFoundError('No such collection.'),
};

export const collectionRoutes = {
  createCollection: route({
    method: 'POST',
    path: '/collections',
    function: 'collections',
    auth: true,
    tag: 'collections',
    summary: 'Summarise a playlist or a channel as one: each video, then an overview',
    description:
      'Reads the playlist (or the channel’s latest uploads, newest first) up to limit videos, and answers 202 at once with the collection to poll at Location (GET /collections/{id}). Each video becomes an ordinary summary job (GET /summaries/{id}: the cache applies, a video summarized before costs nothing), COLLECTION_CONCURRENCY at a time; private, deleted and members-only entries are listed as skipped. When every video is settled, the overview summarises the whole collection in summary_length words, with 3 to 8 themes whose citations are checked against each video’s transcript. Each new summary takes a unit of the daily quota, all of them before anything starts: a collection that needs more than are left is a 429 that says how many it needs.',
    body: { schema: collectionBodySchema, contentTypes: ['application/json'] },
    responses: {
      202: {
        description: 'The collection, to poll at Location (after Retry-After seconds)',
        schema: collectionSchema,
        headers: { Location: 'always', 'Retry-After': 'always' },
      },
      ...withBody,
      404: {
        description:
          'The playlist or channel does not exist or is private (playlist-unavailable, channel-unavailable)',
        example: new NotFoundError(
          'This playlist does not exist, or it is private.',
          'playlist-unavailable',
        ),
      },
      422: {
        description:
          'Invalid fields: a URL that is no playlist or channel, a mix (collection-mix-unsupported), an unknown model, a summary_length the model cannot make; or a playlist or channel with nothing to summarize, every entry private, deleted, members-only or unavailable (collection-empty)',
        example: new ValidationError([
          {
            field: 'url',
            message:
              'Use the link of a YouTube playlist (…/playlist?list=…) or channel (…/@handle, …/channel/UC…).',
          },
        ]),
      },
      429: {
        description:
          'The collection needs more new summaries than are left of today’s quota (quota-exceeded; the detail says how many it needs and how many are left); see Retry-After',
        example: new TooManyRequestsError(
          36000,
          'This collection needs 25 new summaries and you have 12 left today (UTC): lower limit, or try again after midnight UTC.',
          'quota-exceeded',
        ),
      },
      502: { description: 'YouTube answered with something unusable' },
      503: { description: 'YouTube blocked us, or the store or the queue is unavailable' },
      504: { description: 'YouTube did not answer in time' },
    },
  }),
  listCollections: route({
    method: 'GET',
    path: '/collections',
    function: 'collections',
    auth: true,
    tag: 'collections',
    summary: "The caller's collections, newest first",
    description:
      'Every collection the caller asked for, finished or not, newest first, one page at a time (limit, then next_cursor).',
    query: collectionListQuerySchema,
    responses: {
      200: { description: 'A page of collections', schema: collectionListSchema },
      ...handled,
      422: {
        description: 'Invalid limit or cursor (see errors)',
        example: new ValidationError([{ field: 'limit', message: 'Use at most 100.' }]),
      },
    },
  }),
  getCollection: route({
    method: 'GET',
    path: '/collections/{id}',
    function: 'collections',
    auth: true,
    tag: 'collections',
    summary: 'A collection: its videos as they progress, then its overview',
    description:
      "Poll until status is done (overview is set), failed (error says why: collection-failed when no video could be summarized) or cancelled. Each video's summary is its summary job (summary_id). Only the collection's owner sees it.",
    params: { id: collectionPathIdSchema },
    responses: {
      200: {
        description: 'The collection; Retry-After says when to look again while it is unfinished',
        schema: collectionSchema,
        headers: { 'Retry-After': 'sometimes' },
      },
      ...handled,
      404: notFound,
    },
  }),
  cancelCollection: route({
    method: 'DELETE',
    path: '/collections/{id}',
    function: 'collections',
    auth: true,
    tag: 'collections',
    summary: 'Cancel an unfinished collection, or remove a finished one',
    description:
      'An unfinished collection is cancelled (200, status cancelled): its videos not yet started are cancelled and their quota units given back; the summaries under way finish as ordinary jobs. A finished collection is removed from GET /collections (204); its videos’ summaries stay in GET /summaries.',
    params: { id: collectionPathIdSchema },
    responses: {
      200: { description: 'Cancelled: the collection as it now stands', schema: collectionSchema },
      204: { description: 'Removed' },
      ...handled,
      404: notFound,
      503: {
        description:
          'The collection kept changing while it was being cancelled (collection-busy), or a dependency is unavailable; see Retry-After',
        example: new CollectionBusyError(),
      },
    },
  }),
  askCollection: route({
    method: 'POST',
    path: '/collections/{id}/ask',
    function: 'collection-ask',
    auth: true,
    tag: 'collections',
    summary:
      'Ask a question across a collection’s videos, with citations of the moments that answer it',
    description:
      'Answers from the transcripts of the collection’s summarized videos, within the request (as POST /ask: ASK_DEADLINE_MS). The extractive model answers with the passages that best match the question across all videos; a language model answers in its words from those passages, with marks that are checked against each video’s transcript: every citation names its video, starts at one of its captions and links to that moment. Answers are cached per collection, model and question; any other takes a unit of the daily quota.',
    params: { id: collectionPathIdSchema },
    body: { schema: collectionAskBodySchema, contentTypes: ['application/json'] },
    responses: {
      200: { description: 'The answer and its citations', schema: collectionAskResponseSchema },
      ...withBody,
      404: notFound,
      409: {
        description: 'No video of the collection has been summarized yet (collection-not-ready)',
        example: new ConflictError(
          'No video of this collection has been summarized yet; ask again once some are done.',
          'collection-not-ready',
        ),
      },
      429: {
        description: 'Daily quota used up; see Retry-After',
        example: new TooManyRequestsError(
          36000,
          'You have used all 50 summaries and questions of today (UTC); cached ones stay available.',
          'quota-exceeded',
        ),
      },
      502: { description: 'The model answered with something unusable, or is not enabled' },
      504: { description: 'YouTube or the model did not answer before the deadline' },
    },
  }),
} as const satisfies Record<string, RouteDef>;
