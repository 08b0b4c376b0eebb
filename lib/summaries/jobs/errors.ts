// The summary jobs' own failures, each with its problem document.
// Domain code throws these by name; only their classes know the status, type and headers.
import {
  GatewayTimeoutError,
  HttpError,
  InternalError,
  NotFoundError,
  ServiceUnavailableError,
} from '../../errors';

/** 404: the same for a job that does not exist and for someone else's (no oracle for ids). */
export class JobNotFoundError extends NotFoundError {
  override name = 'JobNotFoundError';
  constructor() {
    super('No such summary job.');
  }
}

/** 503 queue-unavailable: a new run could not be handed to the workers (SQS, or the local queue). */
export class QueueUnavailableError extends ServiceUnavailableError {
  override name = 'QueueUnavailableError';
  constructor(cause: unknown) {
    super('queue-unavailable', 'The summary could not be queued right now; try again shortly.', 5, {
      cause,
    });
  }
}

/** 503 summary-in-progress: identical requests kept changing the record under this one. */
export class SummaryInProgressError extends ServiceUnavailableError {
  override name = 'SummaryInProgressError';
  constructor() {
    super(
      'summary-in-progress',
      'Many identical requests are starting this summary right now; try again in a moment.',
      1,
    );
  }
}

/**
 * 503 summary-interrupted: a run whose work was lost (its record gone, or the store down on
 * every delivery), which tells the client to ask again after `retryAfterSeconds`.
 */
export class SummaryInterruptedError extends ServiceUnavailableError {
  override name = 'SummaryInterruptedError';
  constructor(detail: string, retryAfterSeconds: number) {
    super('summary-interrupted', detail, retryAfterSeconds);
  }
}

/** 504 job-timeout: the run's budget ended before its summary was made. */
export class JobTimeoutError extends GatewayTimeoutError {
  override name = 'JobTimeoutError';
  constructor(cause: unknown) {
    super(
      'job-timeout',
      'The summary was not made within its time budget; try a shorter summary or another model.',
      { cause },
    );
  }
}

/** 500 whose detail the client reads: the run's workers vanished without a word too often. */
export class RunCrashedError extends InternalError {
  override name = 'RunCrashedError';
  constructor(crashes: number) {
    super({
      detail: `The summary could not be made: its worker stopped ${crashes} times.`,
      expose: true,
    });
  }
}

/**
 * 410 summary-outdated: a job whose result was made by an earlier version of the service (another
 * response shape) is not served as if it were this version's.
 */
export class SummaryOutdatedError extends HttpError {
  override name = 'SummaryOutdatedError';
  constructor() {
    super(410, 'summary-outdated', 'Gone', {
      detail:
        'This summary was made by an earlier version of the service and is no longer kept; ask for it again.',
    });
  }
}
