// What a `scope` value grants (lib/oauth/scopes.ts): the service's own scopes it names, or every
// one when it names none of them. RFC 6749 3.3 lets an authorization server leave out scopes it
// does not know (claude.ai has asked for `claudeai`, other clients for `openid`), and MCP's
// authorization specification ("Scope Selection Strategy") has clients ask for what
// `scopes_supported` lists, or nothing.
import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, grantedScope, grantedScopes } from '../../../lib/oauth/scopes';

describe('grantedScopes', () => {
  it.each([
    ['summaries:read', ['summaries:read']],
    ['summaries:write', ['summaries:write']],
    ['summaries:write summaries:read', ['summaries:read', 'summaries:write']],
    ['openid summaries:read offline_access', ['summaries:read']],
    ['summaries:read summaries:read', ['summaries:read']],
  ])('grants of %j the service’s scopes it names, in their order', (value, scopes) => {
    expect(grantedScopes(value)).toEqual(scopes);
  });

  it.each([
    ['no scope', undefined],
    ['an empty one', ''],
    ['only scopes of others', 'claudeai openid'],
    // A scope token is case-sensitive (RFC 6749 3.3), and tokens are separated by one space.
    ['another case', 'Summaries:Read'],
    ['another separator', 'summaries:read,summaries:write'],
  ])('grants every scope for %s', (_, value) => {
    expect(grantedScopes(value)).toEqual(ALL_SCOPES);
    expect(grantedScope(value)).toBe('summaries:read summaries:write');
  });
});
