// Path matching: HEAD is served wherever GET is (RFC 9110 9.3.2), and listed in Allow there.
import { describe, expect, it } from 'vitest';
import { createPathMatcher, servingRouteKey } from '../../../lib/http/paths';
import { routeList } from '../../../lib/routes';

const paths = createPathMatcher(routeList);

describe('path matching', () => {
  it('gives a HEAD request the GET route of its path', () => {
    const match = paths.match('/docs/init.js', 'HEAD');

    expect(match).toMatchObject({
      kind: 'found',
      route: { method: 'GET', path: '/docs/{file}' },
      pathParameters: { file: 'init.js' },
    });
  });

  it('lists HEAD after GET in the methods a path allows, and not where GET is not', () => {
    expect(paths.match('/health', 'PUT')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['GET', 'HEAD'],
    });
    expect(paths.match('/register', 'HEAD')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['POST'],
    });
  });

  it('takes a path parameter from one segment only: /summaries/a/b is no summary', () => {
    expect(paths.match('/summaries/a', 'GET')).toMatchObject({
      kind: 'found',
      pathParameters: { id: 'a' },
    });
    expect(paths.match('/summaries/a/b', 'GET')).toEqual({ kind: 'not-found' });
  });

  it('serves the routeKey of a deployed HEAD route by its GET route', () => {
    expect(servingRouteKey('HEAD /summaries/{id}')).toBe('GET /summaries/{id}');
    expect(servingRouteKey('DELETE /summaries/{id}')).toBe('DELETE /summaries/{id}');
    expect(servingRouteKey('$default')).toBe('$default');
  });
});
