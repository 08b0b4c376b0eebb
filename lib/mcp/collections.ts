// The collection tools: summarize_collection is POST /collections (then a wait, as
// summarize_video's), get_collection is GET /collections/{id}, ask_collection is
// POST /collections/{id}/ask. Each answers the REST body as structuredContent, after the same as
// Markdown for the model and the person to read.
import type { User } from '../accounts/users/store';
import type { createCollectionAsk } from '../collections/ask';
import { CollectionNotFoundError } from '../collections/errors';
import {
  COLLECTION_ID_PATTERN,
  COLLECTION_LIMIT,
  type CollectionView,
  collectionAskResponseSchema,
  collectionBodySchema,
  collectionSchema,
} from '../collections/schemas';
import type { CollectionService } from '../collections/service';
import { collectionPollSeconds } from '../collections/view';
import { collectionAnswerMarkdown, collectionMarkdown } from './collection-text';
import { askCollectionArgsSchema, getCollectionArgsSchema } from './schemas';
import { askWithin, type ToolContext, type ToolDef, tool } from './tools';

/** Questions across one collection's videos, as POST /collections/{id}/ask answers them. */
export type CollectionQuestions = Pick<ReturnType<typeof createCollectionAsk>, 'ask'>;

/** How often summarize_collection looks at its collection while it waits: soon, then each second. */
const POLL_FIRST_MS = 250;
const POLL_MAX_MS = 1_000;

const unfinished = (collection: Pick<CollectionView, 'status'>) =>
  collection.status === 'queued' || collection.status === 'running';

/**
 * What a collection's wait tells the client: videos settled of videos, sent when the count grows
 * (MCP wants each notification's progress above the one before), and the first look at once.
 */
export function collectionProgressReporter(
  progress: NonNullable<ToolContext['progress']>,
): (collection: CollectionView) => void {
  let sent = -1;
  return ({ progress: { done, total }, status }) => {
    if (done <= sent) return;
    sent = done;
    const words =
      done === total && unfinished({ status })
        ? `All ${total} videos settled: making the overview`
        : `${done} of ${total} videos settled`;
    progress(done, total, words);
  };
}

/**
 * Looks at the user's collection until it ends or `until` (epoch ms) passes, telling `onLook`
 * each time; the collection as last read.
 * @throws what CollectionService.get throws.
 */
async function waitForCollection(
  collections: Pick<CollectionService, 'get'>,
  user: Pick<User, 'id'>,
  first: CollectionView,
  until: number,
  onLook?: (collection: CollectionView) => void,
): Promise<CollectionView> {
  let collection = first;
  let pause = POLL_FIRST_MS;
  onLook?.(collection);
  while (unfinished(collection) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, until - Date.now())));
    pause = Math.min(POLL_MAX_MS, pause * 2);
    collection = await collections.get(user, collection.id);
    onLook?.(collection);
  }
  return collection;
}

/** The collection's Markdown, and what to do next while it is not done. */
function described(collection: CollectionView): string {
  const text = collectionMarkdown(collection);
  if (!unfinished(collection)) return text;
  return `${text}\n\nNot done yet: call get_collection with {"id": "${collection.id}"} in about ${collectionPollSeconds(collection)} seconds, and again until its status is done; its overview is then set.`;
}

/**
 * summarize_collection, get_collection and ask_collection over the collections service and its
 * questions. `waitMs` is MCP_WAIT_MS and `askDeadlineMs` ASK_DEADLINE_MS; the request's deadline
 * may shorten either.
 */
export function collectionTools(
  collections: Pick<CollectionService, 'create' | 'get'>,
  questions: CollectionQuestions,
  options: { waitMs: number; askDeadlineMs: number },
): ToolDef[] {
  const seconds = Math.round(options.waitMs / 1000);
  return [
    tool({
      name: 'summarize_collection',
      title: 'Summarize a YouTube playlist or channel',
      description: `Summarises a YouTube playlist, or a channel's latest uploads, as one: each video (up to limit, ${COLLECTION_LIMIT.default} by default) is summarised as summarize_video would, then an overview of the whole in about summary_length words, with 3 to 8 themes citing moments of the videos. Takes the body of POST /collections and answers the collection (the body of GET /collections/{id}), as Markdown and as JSON. Waits up to about ${seconds} seconds; a collection takes longer: then call get_collection with its id every few seconds until its status is done, failed or cancelled. With a progressToken, sends progress notifications (videos settled of videos) while it waits. Each new summary of a video takes a unit of the caller's daily quota, all of them at once; a cached one does not.`,
      input: collectionBodySchema,
      output: collectionSchema,
      annotations: { readOnlyHint: false, openWorldHint: true },
      // It starts summaries, and spends the person's quota.
      scope: 'summaries:write',
      run: async (args, { user, requestId, deadlineAt, progress }) => {
        const until = Math.min(Date.now() + options.waitMs, deadlineAt);
        const made = await collections.create(user, args, requestId);
        const onLook = progress && collectionProgressReporter(progress);
        const collection = await waitForCollection(collections, user, made, until, onLook);
        return { structured: collection, note: described(collection) };
      },
    }),
    tool({
      name: 'get_collection',
      title: 'Get a collection',
      description:
        'A collection by its id (from summarize_collection): the body of GET /collections/{id}, as Markdown and as JSON. status is queued or running (call again in a few seconds; progress says how many videos are settled), done (overview is the summary of the whole, with its themes), failed (error says why) or cancelled. Each video lists its status and summary_id: get_summary with that id gives its summary.',
      input: getCollectionArgsSchema,
      output: collectionSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
      scope: 'summaries:read',
      run: async (args, { user }) => {
        // An id no collection can have is the 404 of GET /collections/{id}, as an unknown one.
        if (!COLLECTION_ID_PATTERN.test(args.id)) throw new CollectionNotFoundError();
        const collection = await collections.get(user, args.id);
        return { structured: collection, note: described(collection) };
      },
    }),
    tool({
      name: 'ask_collection',
      title: 'Ask a question across a playlist or channel',
      description:
        "Answers a question across the summarised videos of a collection (from summarize_collection) from their transcripts, with citations: each the video's id, the captions that say it, the second they start and a link that opens the video there. Answers the body of POST /collections/{id}/ask. A question no video addresses says so, with no citation; a collection with no video summarised yet is a 409. A new answer takes a unit of the caller's daily quota; a cached one does not.",
      input: askCollectionArgsSchema,
      output: collectionAskResponseSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
      // As ask_video: asking is reading (docs/oauth.md), though a new answer takes a unit.
      scope: 'summaries:read',
      run: async (args, { user, deadlineAt }) => {
        if (!COLLECTION_ID_PATTERN.test(args.id)) throw new CollectionNotFoundError();
        const within = askWithin(deadlineAt, options.askDeadlineMs);
        const answer = await questions.ask(user, args.id, args.question, within);
        return { structured: answer, note: collectionAnswerMarkdown(answer) };
      },
    }),
  ];
}
