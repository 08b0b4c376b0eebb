// The collections' own failures, each with the problem document the codec renders of it.
import {
  ConflictError,
  HttpError,
  NotFoundError,
  ServiceUnavailableError,
  UnprocessableError,
} from '../errors';

/** 404: the same for a collection that does not exist and for someone else's. */
export class CollectionNotFoundError extends NotFoundError {
  override name = 'CollectionNotFoundError';
  constructor() {
    super('No such collection.');
  }
}

/** 409 collection-not-ready: a question before any of its videos has a summary. */
export class CollectionNotReadyError extends ConflictError {
  override name = 'CollectionNotReadyError';
  constructor() {
    super(
      'No video of this collection has been summarized yet; ask again once some are done.',
      'collection-not-ready',
    );
  }
}

/** 422 collection-empty: every entry read is private, deleted, members-only or unavailable. */
export class CollectionEmptyError extends UnprocessableError {
  override name = 'CollectionEmptyError';
  constructor(skipped: number) {
    super(
      'collection-empty',
      'Nothing to summarize',
      skipped === 0
        ? 'This playlist or channel has no videos.'
        : `None of the ${skipped} videos read can be summarized: each is private, deleted, members-only or unavailable.`,
    );
  }
}

/**
 * 502 collection-failed: no video of the collection could be summarized (each video's error
 * says why), so there is nothing to make an overview of.
 */
export class CollectionFailedError extends HttpError {
  override name = 'CollectionFailedError';
  constructor(failed: number) {
    super(502, 'collection-failed', 'Collection failed', {
      detail: `None of its ${failed} videos could be summarized; each video's error says why.`,
      expose: true,
    });
  }
}

/** 503 collection-busy: the collection kept changing under a request that meant to change it. */
export class CollectionBusyError extends ServiceUnavailableError {
  override name = 'CollectionBusyError';
  constructor() {
    super('collection-busy', 'The collection is changing right now; try again in a moment.', 1);
  }
}
