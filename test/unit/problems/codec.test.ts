// The problem codec (lib/problems/codec.ts): each named error's RFC 9457 document, what a client reads
// of a 5xx, the one mapping of a configuration error, and a failed job's stored problem.
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  ServerMisconfiguredError,
  ServiceUnavailableError,
  ValidationError,
} from '../../../lib/errors';
import {
  asHttpError,
  problemHeaders,
  storedError,
  storedProblemDocument,
  storeProblem,
  toProblem,
} from '../../../lib/problems/codec';
import {
  JobNotFoundError,
  JobTimeoutError,
  QueueUnavailableError,
  RunCrashedError,
  SummaryInProgressError,
  SummaryInterruptedError,
  SummaryOutdatedError,
} from '../../../lib/summaries/jobs/errors';

const HIDDEN = 'The server could not complete the request.';

describe('the named errors of summary jobs', () => {
  const cases: [string, unknown, Record<string, unknown>, Record<string, string>][] = [
    [
      'JobNotFoundError',
      new JobNotFoundError(),
      {
        type: 'urn:tubesum:problem:not-found',
        title: 'Not found',
        status: 404,
        detail: 'No such summary job.',
      },
      {},
    ],
    [
      'QueueUnavailableError',
      new QueueUnavailableError(new Error('SQS said no')),
      {
        type: 'urn:tubesum:problem:queue-unavailable',
        title: 'Service unavailable',
        status: 503,
        detail: 'The summary could not be queued right now; try again shortly.',
      },
      { 'Retry-After': '5' },
    ],
    [
      'SummaryInProgressError',
      new SummaryInProgressError(),
      {
        type: 'urn:tubesum:problem:summary-in-progress',
        title: 'Service unavailable',
        status: 503,
        detail:
          'Many identical requests are starting this summary right now; try again in a moment.',
      },
      { 'Retry-After': '1' },
    ],
    [
      'SummaryInterruptedError',
      new SummaryInterruptedError('The work on this summary was lost; ask for it again.', 60),
      {
        type: 'urn:tubesum:problem:summary-interrupted',
        title: 'Service unavailable',
        status: 503,
        detail: 'The work on this summary was lost; ask for it again.',
      },
      { 'Retry-After': '60' },
    ],
    [
      'JobTimeoutError',
      new JobTimeoutError(new Error('aborted')),
      {
        type: 'urn:tubesum:problem:job-timeout',
        title: 'Gateway timeout',
        status: 504,
        detail:
          'The summary was not made within its time budget; try a shorter summary or another model.',
      },
      {},
    ],
    [
      'RunCrashedError',
      new RunCrashedError(3),
      {
        type: 'urn:tubesum:problem:internal-error',
        title: 'Internal server error',
        status: 500,
        detail: 'The summary could not be made: its worker stopped 3 times.',
      },
      {},
    ],
    [
      'SummaryOutdatedError',
      new SummaryOutdatedError(),
      {
        type: 'urn:tubesum:problem:summary-outdated',
        title: 'Gone',
        status: 410,
        detail:
          'This summary was made by an earlier version of the service and is no longer kept; ask for it again.',
      },
      {},
    ],
  ];

  it.each(cases)(
    'renders %s as its problem document and headers',
    (_, error, document, headers) => {
      expect(toProblem(error, 'req-1')).toEqual({ ...document, request_id: 'req-1' });
      expect(problemHeaders(error)).toEqual(headers);
    },
  );
});

describe('the problem of anything thrown', () => {
  it('answers a ConfigError with 503 server-misconfigured, its detail hidden, Retry-After 30', () => {
    const error = new ConfigError('JWT_SECRET must be set');

    expect(toProblem(error, 'req-2')).toEqual({
      type: 'urn:tubesum:problem:server-misconfigured',
      title: 'Service unavailable',
      status: 503,
      detail: HIDDEN,
      request_id: 'req-2',
    });
    expect(problemHeaders(error)).toEqual({ 'Retry-After': '30' });
    expect(asHttpError(error)).toBeInstanceOf(ServerMisconfiguredError);
    expect(asHttpError(error).cause).toBe(error);
  });

  it('answers anything unknown with the opaque 500, keeping it as the cause for the log', () => {
    const error = new TypeError('secret internals: x is undefined');

    expect(toProblem(error, 'req-3')).toEqual({
      type: 'urn:tubesum:problem:internal-error',
      title: 'Internal server error',
      status: 500,
      detail: HIDDEN,
      request_id: 'req-3',
    });
    expect(asHttpError(error).cause).toBe(error);
    expect(toProblem('a string', 'req-3').status).toBe(500);
  });

  it('hides a 5xx detail not written for clients, and shows one that is', () => {
    const hidden = new ServiceUnavailableError('x', 'the SDK said ECONNRESET', 2, {
      expose: false,
    });
    const shown = new ServiceUnavailableError('x', 'Try again in a moment.', 2);

    expect(toProblem(hidden, 'r').detail).toBe(HIDDEN);
    expect(hidden.expose).toBe(false);
    expect(toProblem(shown, 'r').detail).toBe('Try again in a moment.');
  });

  it('sets expose to status < 500 by default, as middy does', () => {
    expect(new JobNotFoundError().expose).toBe(true);
    expect(new ValidationError([]).expose).toBe(true);
    expect(new ServerMisconfiguredError(undefined).expose).toBe(false);
  });

  it('keeps the standard members when an extension names one of them', () => {
    const error = new ValidationError([{ field: 'video_url', message: 'is required' }]);
    Object.assign(error.extensions, { status: 200, type: 'spoofed' });

    const problem = toProblem(error, 'r');

    expect(problem).toMatchObject({ status: 422, type: 'urn:tubesum:problem:validation-error' });
    expect(problem.errors).toEqual([{ field: 'video_url', message: 'is required' }]);
  });
});

describe('a failed job’s stored problem', () => {
  it('reads back as the very document and headers the error itself answers', () => {
    const error = new SummaryInterruptedError('Ask for it again.', 7);

    const stored = storeProblem(error);

    expect(stored).toEqual({
      status: 503,
      type: 'summary-interrupted',
      title: 'Service unavailable',
      detail: 'Ask for it again.',
      extensions: {},
      headers: { 'Retry-After': '7' },
    });
    expect(storedProblemDocument(stored, 'req-4')).toEqual(toProblem(error, 'req-4'));
    expect(problemHeaders(storedError(stored))).toEqual(problemHeaders(error));
  });

  it('stores extensions, and an unknown failure only as the opaque 500 (no internals kept)', () => {
    const refused = new ValidationError([{ field: 'summary_length', message: 'too long' }]);
    const crash = new Error('stack trace with a secret');

    expect(storedProblemDocument(storeProblem(refused), 'r')).toEqual(toProblem(refused, 'r'));
    const stored = storeProblem(crash);
    expect(stored).toMatchObject({ status: 500, type: 'internal-error', detail: HIDDEN });
    expect(JSON.stringify(stored)).not.toContain('secret');
    expect(storedProblemDocument(stored, 'r')).toEqual(toProblem(crash, 'r'));
  });

  it('stores a ConfigError as 503 server-misconfigured, detail hidden', () => {
    const stored = storeProblem(new ConfigError('OPENAI_API_KEY is missing'));

    expect(stored).toMatchObject({ status: 503, type: 'server-misconfigured', detail: HIDDEN });
    expect(JSON.stringify(stored)).not.toContain('OPENAI_API_KEY');
  });
});
