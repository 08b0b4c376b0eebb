// Visitor data: asked for once, shared by concurrent requests, kept, renewed on demand, and
// never a reason to fail a search.
import { describe, expect, it } from 'vitest';
import { youTubeTimeout } from '../../../../lib/youtube/errors';
import { createVisitorSession } from '../../../../lib/youtube/innertube/visitor';

/** A visitor_id endpoint that hands out numbered visitors, and counts what it was asked. */
function endpoint(
  answer: (n: number) => Response | Promise<Response> = (n) => visitor(`CgtWaXNpdG9y${n}xx`),
) {
  const calls: { url: string; body: unknown; headers: Record<string, string> }[] = [];
  const fetch = async (url: string, init: RequestInit = {}) => {
    calls.push({
      url,
      body: JSON.parse(String(init.body)),
      headers: init.headers as Record<string, string>,
    });
    return answer(calls.length);
  };
  return { fetch, calls };
}

const visitor = (visitorData: string) =>
  new Response(JSON.stringify({ responseContext: { visitorData } }), { status: 200 });

describe('the visitor session', () => {
  it('asks visitor_id once as VISIONOS, and keeps what it got', async () => {
    const session = createVisitorSession();
    const { fetch, calls } = endpoint();

    const first = await session.current(fetch, 1_000);
    const second = await session.current(fetch, 1_000);

    expect(first).toBe('CgtWaXNpdG9y1xx');
    expect(second).toBe(first);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toMatch(/\/youtubei\/v1\/visitor_id\?prettyPrint=false$/);
    expect(calls[0]?.body).toMatchObject({ context: { client: { clientName: 'VISIONOS' } } });
    expect(calls[0]?.headers['X-Goog-Api-Format-Version']).toBe('2');
  });

  it('makes one request for callers that ask at once', async () => {
    const session = createVisitorSession();
    const { fetch, calls } = endpoint();

    const all = await Promise.all([1, 2, 3].map(() => session.current(fetch, 1_000)));

    expect(new Set(all).size).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('asks for new visitor data after renew()', async () => {
    const session = createVisitorSession();
    const { fetch } = endpoint();

    const before = await session.current(fetch, 1_000);
    session.renew();
    const after = await session.current(fetch, 1_000);

    expect(after).not.toBe(before);
  });

  it('learns visitor data an answer hands out only when it has none', async () => {
    const session = createVisitorSession();
    const { fetch, calls } = endpoint();

    session.learn('CgtMZWFybmVkAAAA');
    session.learn('CgtTZWNvbmQAAAA');

    expect(await session.current(fetch, 1_000)).toBe('CgtMZWFybmVkAAAA');
    expect(calls).toHaveLength(0);
  });

  it.each([
    ['a 403', () => new Response('no', { status: 403 })],
    ['a body without visitor data', () => new Response('{"responseContext":{}}', { status: 200 })],
    ['not JSON', () => new Response('<html>', { status: 200 })],
    ['visitor data that is not a token', () => visitor('<script>alert(1)</script>')],
    ['a timeout of its own', () => Promise.reject(youTubeTimeout())],
  ])('goes on without visitor data after %s', async (_case, answer) => {
    const session = createVisitorSession();

    expect(await session.current(endpoint(answer).fetch, 1_000)).toBeUndefined();
  });
});
