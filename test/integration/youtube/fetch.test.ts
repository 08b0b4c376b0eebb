// The controlled fetch against a small local origin: rewriting, redirects, caps, deadlines.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../lib/errors';
import { parseRetryAfter } from '../../../lib/net/retry-after';
import { createControlledFetch, type YouTubeRequestInit } from '../../../lib/youtube/fetch';
import { failure } from '../../support/errors';

let server: Server;
let origin: string;
let connections = 0;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = request.url ?? '/';
    seen.push(`${request.method} ${url}`);
    const path = url.split('?')[0];
    const redirect = (location: string, status = 302) => {
      response.writeHead(status, { Location: location });
      response.end();
    };
    switch (path) {
      case '/echo':
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ method: request.method, url }));
        return;
      case '/redirect-same':
        return redirect('/echo?from=same');
      case '/redirect-youtube':
        return redirect('https://www.youtube.com/echo?from=youtube');
      case '/redirect-consent':
        return redirect('https://consent.youtube.com/m?continue=x');
      case '/redirect-loop':
        return redirect('/redirect-loop');
      case '/redirect-303':
        return redirect('/echo?from=303', 303);
      case '/big-declared':
        response.writeHead(200, { 'Content-Length': '2000' });
        response.end('x'.repeat(2000));
        return;
      case '/big-chunked':
        response.writeHead(200);
        for (let i = 0; i < 20; i++) response.write('x'.repeat(100));
        response.end();
        return;
      case '/stall-body':
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        response.write('partial');
        return;
      case '/status-503':
        response.writeHead(503);
        response.end();
        return;
      case '/status-404':
        response.writeHead(404);
        response.end('nope');
        return;
      case '/rate-limited':
        response.writeHead(429, { 'Retry-After': '42' });
        response.end();
        return;
      default:
        response.writeHead(404);
        response.end();
    }
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

beforeEach(() => {
  seen.length = 0;
  connections = 0;
});

/**
 * Far longer than any answer of the local origin takes, even on a loaded machine: only the tests
 * of a stall expect a time-out, and they set their own (a stall never ends, so any bound holds).
 * A 1-second bound here once timed out an answer that was on its way (a busy 2-core machine).
 */
const PATIENT_MS = 20_000;

const controlled = (overrides: Partial<Parameters<typeof createControlledFetch>[0]> = {}) =>
  createControlledFetch({ origin, timeoutMs: PATIENT_MS, maxResponseBytes: 1_000, ...overrides });

const echoOf = async (response: Response) =>
  (await response.json()) as { method: string; url: string };

describe('createControlledFetch', () => {
  it('sends a youtube.com URL to the configured origin, keeping only path and query', async () => {
    const { fetch } = controlled();

    const response = await fetch('https://www.youtube.com/echo?v=abc&lang=en#fragment');

    expect(await response.json()).toEqual({ method: 'GET', url: '/echo?v=abc&lang=en' });
  });

  it('keeps the method and body youtube-transcript sends', async () => {
    const { fetch } = controlled();

    const response = await fetch('https://www.youtube.com/echo', { method: 'POST', body: '{}' });

    expect((await echoOf(response)).method).toBe('POST');
  });

  it.each([
    'https://evil.tld/echo',
    'http://www.youtube.com/echo',
    'https://www.youtube.com:8443/echo',
    'https://user:pw@www.youtube.com/echo',
    'https://consent.youtube.com/echo',
    'http://169.254.169.254/latest/meta-data/',
  ])('refuses %s without connecting anywhere', async (url) => {
    const { fetch } = controlled();

    const error = await failure(fetch(url));

    expect(error.status).toBe(502);
    expect(error.type).toBe('youtube-bad-response');
    expect(connections).toBe(0);
  });

  it('follows a redirect on the same origin', async () => {
    const { fetch } = controlled();

    const response = await fetch('https://www.youtube.com/redirect-same');

    expect((await echoOf(response)).url).toBe('/echo?from=same');
  });

  it('follows a redirect to youtube.com by keeping it on the configured origin', async () => {
    const { fetch } = controlled();

    const response = await fetch('https://www.youtube.com/redirect-youtube');

    expect((await echoOf(response)).url).toBe('/echo?from=youtube');
  });

  it('turns a POST into a GET on a 303', async () => {
    const { fetch } = controlled();

    const response = await fetch('https://www.youtube.com/redirect-303', {
      method: 'POST',
      body: '{}',
    });

    expect(await response.json()).toEqual({ method: 'GET', url: '/echo?from=303' });
  });

  it('treats a redirect to the consent site as a block', async () => {
    const { fetch } = controlled();

    const error = await failure(fetch('https://www.youtube.com/redirect-consent'));

    expect(error.status).toBe(503);
    expect(error.extensions.block_reason).toBe('consent-required');
  });

  it('gives up on a redirect loop', async () => {
    const { fetch } = controlled({ maxRedirects: 3 });

    const error = await failure(fetch('https://www.youtube.com/redirect-loop'));

    expect(error.type).toBe('youtube-bad-response');
    expect(seen).toHaveLength(4);
  });

  it.each(['/big-declared', '/big-chunked'])('refuses a body over the cap (%s)', async (path) => {
    const { fetch } = controlled();

    const error = await failure(fetch(`https://www.youtube.com${path}`));

    expect(error.message).toContain('larger than 1000 bytes');
  });

  it('takes a time-out that is not a whole number of milliseconds (a share of the time left)', async () => {
    const { fetch } = controlled();

    // AbortSignal.timeout refuses a fraction (ERR_OUT_OF_RANGE): the request failed at once.
    const init: YouTubeRequestInit = { timeoutMs: 6_666.67 };
    const response = await fetch('https://www.youtube.com/echo', init);

    expect((await echoOf(response)).url).toBe('/echo');
  });

  it('times out a body that stops mid-way', async () => {
    const { fetch } = controlled({ timeoutMs: 300 });

    const error = await failure(fetch('https://www.youtube.com/stall-body'));

    expect(error.status).toBe(504);
  });

  it('rethrows the caller’s own HttpError when the caller aborts', async () => {
    const controller = new AbortController();
    const deadline = new HttpError(504, 'request-deadline', 'Deadline');
    const { fetch } = controlled({ signal: controller.signal });
    // Once the stalled body has begun: the caller's deadline, not the fetch's own, ends it.
    server.once('request', () => setTimeout(() => controller.abort(deadline), 50));

    const error = await failure(fetch('https://www.youtube.com/stall-body'));

    expect(error).toBe(deadline);
  });

  it('answers 502 for a 5xx and hands other statuses back to the caller', async () => {
    const { fetch } = controlled();

    const error = await failure(fetch('https://www.youtube.com/status-503'));
    const notFound = await fetch('https://www.youtube.com/status-404');

    expect(error.status).toBe(502);
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toBe('nope');
  });

  it('reports a 429 as a block with YouTube’s Retry-After', async () => {
    const { fetch } = controlled();

    const error = await failure(fetch('https://www.youtube.com/rate-limited'));

    expect(error.status).toBe(503);
    expect(error.headers['Retry-After']).toBe('42');
  });

  it('answers 503 youtube-unreachable when nothing listens at the origin', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const { fetch } = createControlledFetch({
      origin: `http://127.0.0.1:${port}`,
      timeoutMs: PATIENT_MS,
      maxResponseBytes: 1_000,
    });

    const error = await failure(fetch('https://www.youtube.com/echo'));

    expect(error.type).toBe('youtube-unreachable');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, clamped to one hour', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');

    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('999999', now)).toBe(3600);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
