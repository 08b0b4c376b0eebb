// Which redirect URIs a client may register, and when an authorization request's is one of them:
// exactly, but for the port of a loopback one (RFC 8252 7.3); and the origin OAuth names.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../lib/config';
import { isLoopbackHost, requestOrigin } from '../../../../lib/http/headers/origin';
import {
  redirectUriMatches,
  redirectUriProblem,
  redirectWith,
} from '../../../../lib/oauth/clients/redirect-uris';

describe('redirect URIs', () => {
  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'http://127.0.0.1:33418/callback',
    'http://localhost/cb',
    'http://[::1]:9000/cb',
  ])('registers %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it.each([
    'http://example.com/cb',
    'http://127.0.0.1.example.com/cb',
    'http://localhost.example.com/cb',
    'ftp://127.0.0.1/cb',
    'cursor://anysphere/cb',
    'https://example.com/cb#frag',
    'https://a:b@example.com/cb',
    `https://example.com/${'x'.repeat(2_000)}`,
    'not a url',
  ])('refuses %s', (uri) => {
    expect(redirectUriProblem(uri)).toEqual(expect.any(String));
  });

  it('matches exactly, and a loopback URI on any port only', () => {
    const registered = ['https://app.example.com/cb', 'http://127.0.0.1:5555/cb'];

    expect(redirectUriMatches('https://app.example.com/cb', registered)).toBe(true);
    expect(redirectUriMatches('https://app.example.com:443/cb', registered)).toBe(false);
    expect(redirectUriMatches('https://app.example.com/cb/', registered)).toBe(false);
    expect(redirectUriMatches('https://APP.example.com/cb', registered)).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:61000/cb', registered)).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1/cb', registered)).toBe(true);
    expect(redirectUriMatches('http://localhost:5555/cb', registered)).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:5555/other', registered)).toBe(false);
  });

  it('adds the answer to the query it was registered with, state as it came', () => {
    const back = new URL(
      redirectWith('https://a.example/cb?tenant=1', { code: 'c', state: 'x y&z' }),
    );

    expect(back.searchParams.get('tenant')).toBe('1');
    expect(back.searchParams.get('state')).toBe('x y&z');
  });
});

describe('the origin OAuth names', () => {
  const event = (domainName: string) => ({ requestContext: { domainName }, headers: {} }) as never;

  it('is https but on a loopback host, and PUBLIC_URL when set', () => {
    const unset = loadConfig({});

    expect(requestOrigin(unset, event('abc.execute-api.us-east-1.amazonaws.com'))).toBe(
      'https://abc.execute-api.us-east-1.amazonaws.com',
    );
    expect(requestOrigin(unset, event('127.0.0.1:3000'))).toBe('http://127.0.0.1:3000');
    expect(requestOrigin(unset, event('localhost:3000'))).toBe('http://localhost:3000');
    expect(requestOrigin(unset, event('192.168.1.5:3000'))).toBe('https://192.168.1.5:3000');
    expect(
      requestOrigin(loadConfig({ PUBLIC_URL: 'https://tubesum.example.com/' }), event('x')),
    ).toBe('https://tubesum.example.com');
    expect(isLoopbackHost('127.10.0.1')).toBe(true);
    expect(isLoopbackHost('127.0.0.1.nip.io')).toBe(false);
  });

  it('refuses a PUBLIC_URL that is not an origin OAuth allows', () => {
    for (const bad of [
      'http://tubesum.example.com',
      'https://tubesum.example.com/api',
      'https://tubesum.example.com/?x=1',
      'ftp://tubesum.example.com',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).PUBLIC_URL).toBe(
      'http://127.0.0.1:3000',
    );
  });
});
