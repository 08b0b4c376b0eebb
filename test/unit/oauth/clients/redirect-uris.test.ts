// Which redirect URIs a client may register, and when an authorization request's is one of them:
// exactly, but for the port of a loopback one (RFC 8252 7.3); an app's private-use scheme
// (RFC 8252 7.1), as the hosts people use register them: Cursor's
// cursor://anysphere.cursor-mcp/oauth/callback (makeplane/plane-mcp-server #159), VS Code's
// https://vscode.dev/redirect and http://127.0.0.1:33418 (microsoft/vscode #278512); never a scheme
// the browser runs, never whitespace (an outside attack run registered " https://..." as written);
// how the answer is sent back to such a URI, and what the consent screen says of it; and the
// origin OAuth names.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../lib/config';
import { isLoopbackHost } from '../../../../lib/config/origin';
import { requestOrigin } from '../../../../lib/http/headers/origin';
import {
  redirectHost,
  redirectUriMatches,
  redirectUriProblem,
  redirectWith,
} from '../../../../lib/oauth/clients/redirect-uris';

describe('redirect URIs', () => {
  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'https://vscode.dev/redirect',
    'https://www.cursor.com/agents/mcp/oauth/callback',
    'http://127.0.0.1:33418/callback',
    'http://127.0.0.1:33418',
    'http://localhost/cb',
    'http://[::1]:9000/cb',
    'cursor://anysphere.cursor-mcp/oauth/callback',
    'cursor://anysphere.cursor-mcp/oauth/user-browserstack/callback',
    'vscode://vscode.github-authentication/did-authenticate',
    'vscode-insiders://vscode.github-authentication/did-authenticate',
    'com.example.app:/oauth2redirect/example-provider',
    'com.example.app://callback',
  ])('registers %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it.each([
    ['http off loopback', 'http://example.com/cb'],
    ['a loopback look-alike', 'http://127.0.0.1.example.com/cb'],
    ['a localhost look-alike', 'http://localhost.example.com/cb'],
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: that looks like a path', 'javascript://anysphere.cursor-mcp/%0aalert(1)'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['file:', 'file:///etc/passwd'],
    ['about:', 'about:blank'],
    ['blob:', 'blob:https://example.com/0f3c'],
    ['ws:', 'ws://127.0.0.1:8080/cb'],
    ['wss:', 'wss://example.com/cb'],
    ['ftp:', 'ftp://127.0.0.1/cb'],
    ['a single-word scheme of no known app', 'myapp://callback'],
    ['an app scheme with nothing after it', 'com.example.app:'],
    ['a fragment', 'https://example.com/cb#frag'],
    ['credentials', 'https://a:b@example.com/cb'],
    ['a fragment on an app scheme', 'cursor://anysphere.cursor-mcp/cb#x'],
    ['credentials on an app scheme', 'cursor://user@anysphere.cursor-mcp/cb'],
    ['a length over 2,000', `https://example.com/${'x'.repeat(2_000)}`],
    ['no scheme', 'not a url'],
    ['a leading space', ' https://claude.ai/api/mcp/auth_callback'],
    ['a trailing space', 'https://claude.ai/api/mcp/auth_callback '],
    ['a trailing newline', 'https://claude.ai/api/mcp/auth_callback\n'],
    ['a tab inside', 'https://claude.ai/api/mcp/auth\t_callback'],
    ['a space inside', 'https://claude.ai/api/mcp/auth callback'],
    ['a no-break space', 'https://claude.ai/api/mcp/auth_callback\u00a0'],
    ['a zero-width space', 'https://claude.ai\u200b/api/mcp/auth_callback'],
    ['a right-to-left override', 'https://evil.example/\u202ecallback'],
    ['a backslash', 'https://evil.example\\@claude.ai/cb'],
  ])('refuses %s', (_, uri) => {
    expect(redirectUriProblem(uri)).toEqual(expect.any(String));
  });

  it('says why, in words a developer can act on', () => {
    expect(redirectUriProblem(' https://claude.ai/cb')).toBe(
      'must not contain whitespace or control characters',
    );
    expect(redirectUriProblem('javascript:alert(1)')).toBe(
      'uses javascript:, which is never a redirect URI',
    );
    expect(redirectUriProblem('myapp://cb')).toMatch(/reverse-domain, such as com\.example\.app:/);
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

  it('matches an app scheme exactly, with no port or case to spare', () => {
    const registered = ['cursor://anysphere.cursor-mcp/oauth/callback'];

    expect(redirectUriMatches('cursor://anysphere.cursor-mcp/oauth/callback', registered)).toBe(
      true,
    );
    expect(redirectUriMatches('CURSOR://anysphere.cursor-mcp/oauth/callback', registered)).toBe(
      false,
    );
    expect(redirectUriMatches('cursor://anysphere.cursor-mcp:1/oauth/callback', registered)).toBe(
      false,
    );
    expect(redirectUriMatches('cursor://evil.example/oauth/callback', registered)).toBe(false);
  });

  it('adds the answer to the query it was registered with, state as it came', () => {
    const back = new URL(
      redirectWith('https://a.example/cb?tenant=1', { code: 'c', state: 'x y&z' }),
    );

    expect(back.searchParams.get('tenant')).toBe('1');
    expect(back.searchParams.get('state')).toBe('x y&z');
  });

  it('sends the answer to an app scheme as written, host and path kept (WHATWG non-special URLs)', () => {
    const cursor = redirectWith('cursor://anysphere.cursor-mcp/oauth/callback', {
      code: 'abc-_123',
      state: 'x y&z=/é',
    });
    const reverseDomain = redirectWith('com.example.app:/oauth2redirect', { code: 'c' });
    const withQuery = redirectWith('vscode://vscode.github-authentication/did-authenticate?a=1', {
      error: 'access_denied',
      state: undefined,
    });

    expect(cursor).toBe(
      'cursor://anysphere.cursor-mcp/oauth/callback?code=abc-_123&state=x+y%26z%3D%2F%C3%A9',
    );
    expect(new URL(cursor).searchParams.get('state')).toBe('x y&z=/é');
    expect(reverseDomain).toBe('com.example.app:/oauth2redirect?code=c');
    expect(withQuery).toBe(
      'vscode://vscode.github-authentication/did-authenticate?a=1&error=access_denied',
    );
  });

  it('names the host of a web redirect, and the scheme of an app’s, never the host an app chose', () => {
    expect(redirectHost('https://claude.ai/api/mcp/auth_callback')).toBe('claude.ai');
    expect(redirectHost('http://127.0.0.1:33418/')).toBe('127.0.0.1:33418');
    expect(redirectHost('cursor://anysphere.cursor-mcp/oauth/callback')).toBe(
      'cursor: (an app on this device)',
    );
    expect(redirectHost('cursor://claude.ai/callback')).toBe('cursor: (an app on this device)');
    expect(redirectHost('com.example.app:/oauth2redirect')).toBe(
      'com.example.app: (an app on this device)',
    );
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
