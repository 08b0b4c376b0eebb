// What a failed call to an OpenAI-compatible server means: which failures are sent again, and
// what each is for the client. The errors are the ones openai 6.x builds itself: APIError.generate
// (node_modules/openai/core/error.js) picks the subclass by status, as the client does for an
// HTTP error; a body cut mid-way comes as undici's TypeError with an UND_ERR_* cause.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { failureOf, retryable, withOwnSignal } from '../../../lib/models/openai-failures';

const answered = (status: number, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(
    status,
    { error: { message: `status ${status}` } },
    undefined,
    new Headers(headers),
  );
const refused = () =>
  new OpenAI.APIConnectionError({
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), {
      code: 'ECONNREFUSED',
    }),
  });
const brokenAfterSending = () =>
  new OpenAI.APIConnectionError({
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });
const cutOff = () =>
  new TypeError('terminated', {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });
const live = () => new AbortController().signal;

describe('retryable', () => {
  it('sends throttling (429) and server errors (500-504) again', () => {
    for (const status of [429, 500, 502, 503, 504]) expect(retryable(answered(status))).toBe(true);
  });

  it('does not send again what the server refused (400 such as a context too long, 401, 403, 404, 422)', () => {
    for (const status of [400, 401, 403, 404, 409, 422]) {
      expect(retryable(answered(status))).toBe(false);
    }
  });

  it('sends again a connection that never reached the server, not one that broke after sending', () => {
    expect(retryable(refused())).toBe(true);
    expect(retryable(brokenAfterSending())).toBe(false);
    expect(retryable(cutOff())).toBe(false);
  });

  it('does not send again a call its caller aborted, nor a timeout', () => {
    expect(retryable(new OpenAI.APIUserAbortError())).toBe(false);
    expect(retryable(new OpenAI.APIConnectionTimeoutError())).toBe(false);
  });
});

describe('failureOf', () => {
  it('is a timeout once the caller’s signal is aborted, whatever the error', () => {
    const controller = new AbortController();
    controller.abort();
    expect(failureOf(answered(503), controller.signal)).toEqual({ kind: 'timeout' });
    expect(failureOf(new OpenAI.APIUserAbortError(), live())).toEqual({ kind: 'timeout' });
  });

  it('is throttled for a 429, with the server’s Retry-After in seconds (delta or date, capped)', () => {
    expect(failureOf(answered(429, { 'retry-after': '7' }), live())).toMatchObject({
      kind: 'throttled',
      retryAfterSeconds: 7,
      details: { status: 429 },
    });
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    const dated = failureOf(answered(429, { 'retry-after': inTwoMinutes }), live());
    expect(dated?.retryAfterSeconds).toBeGreaterThanOrEqual(118);
    expect(dated?.retryAfterSeconds).toBeLessThanOrEqual(120);
    expect(failureOf(answered(429, { 'retry-after': '86400' }), live())?.retryAfterSeconds).toBe(
      3600,
    );
    expect(failureOf(answered(429), live())).toMatchObject({
      kind: 'throttled',
      retryAfterSeconds: undefined,
    });
  });

  it('is unavailable for a 5xx (with its Retry-After), a refused connection and a body cut off', () => {
    expect(failureOf(answered(503, { 'retry-after': '30' }), live())).toMatchObject({
      kind: 'unavailable',
      retryAfterSeconds: 30,
      details: { status: 503 },
    });
    expect(failureOf(answered(500), live())?.kind).toBe('unavailable');
    expect(failureOf(refused(), live())?.kind).toBe('unavailable');
    expect(failureOf(cutOff(), live())?.kind).toBe('unavailable');
  });

  it('tells refused keys and unknown models apart from other refusals, with the server’s words', () => {
    expect(failureOf(answered(401), live())).toMatchObject({
      kind: 'access-denied',
      providerMessage: expect.stringContaining('status 401'),
    });
    expect(failureOf(answered(403), live())?.kind).toBe('access-denied');
    expect(failureOf(answered(404), live())?.kind).toBe('not-found');
    // llama.cpp's server answers a prompt past its context with a 400.
    const tooLong = OpenAI.APIError.generate(
      400,
      { error: { message: 'the request exceeds the available context size' } },
      undefined,
      new Headers(),
    );
    expect(failureOf(tooLong, live())).toMatchObject({
      kind: 'rejected',
      details: { status: 400 },
      providerMessage: expect.stringContaining('exceeds the available context size'),
    });
  });

  it('is malformed for a body that says JSON and is not, and nothing for a bug of ours', () => {
    let notJson: unknown;
    try {
      JSON.parse('<html>');
    } catch (error) {
      notJson = error;
    }
    expect(failureOf(notJson, live())?.kind).toBe('malformed');
    expect(failureOf(new TypeError('x is not a function'), live())).toBeUndefined();
    expect(failureOf(new RangeError('invalid'), live())).toBeUndefined();
  });
});

describe('withOwnSignal', () => {
  it('aborts the call’s own signal with the caller’s reason', async () => {
    const caller = new AbortController();
    const reason = new Error('deadline');
    const seen = withOwnSignal(
      caller.signal,
      (own) => new Promise((_, reject) => own.addEventListener('abort', () => reject(own.reason))),
    );
    caller.abort(reason);
    await expect(seen).rejects.toBe(reason);
  });

  it('starts aborted when the caller’s signal already is', async () => {
    const caller = new AbortController();
    caller.abort('gone');
    expect(await withOwnSignal(caller.signal, async (own) => own.aborted)).toBe(true);
  });

  it('lets go of the caller’s signal when each call ends, however many calls share it', async () => {
    const caller = new AbortController();
    const owns: AbortSignal[] = [];
    for (let i = 0; i < 20; i++) {
      await withOwnSignal(caller.signal, async (own) => owns.push(own));
    }
    await withOwnSignal(caller.signal, async () => {
      throw new Error('failed call');
    }).catch(() => undefined);
    caller.abort();
    // A listener left behind would have passed the abort on to a finished call's signal.
    expect(owns.some((own) => own.aborted)).toBe(false);
  });
});
