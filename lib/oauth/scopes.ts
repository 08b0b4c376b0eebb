// The scopes of /mcp's OAuth access tokens: what an app a person connected may do. Two, by what
// a call costs the person: reading (summaries, transcripts, questions) and starting summaries,
// which spend their daily quota. An API key holds every scope; so does a connection whose app
// asked for none of ours (no `scope`, or only others' such as `openid`): what a connection was
// before scopes. Scopes the service does not know are left out of what is granted (RFC 6749
// 3.3 lets an authorization server narrow a request), and the token answer names what was.

/** Each scope, and what it allows, in the words of the consent screen. */
export const SCOPES = {
  'summaries:read':
    'See your summaries, read the transcripts of videos and ask questions about them',
  'summaries:write': 'Summarise videos for you (each new summary takes one of your daily quota)',
} as const;

export type Scope = keyof typeof SCOPES;

/** Every scope, in the order the metadata, challenges and tokens list them. */
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

/** Every scope as one `scope` value (space-separated, RFC 6749 3.3). */
export const ALL_SCOPES_VALUE = ALL_SCOPES.join(' ');

/**
 * The scopes a `scope` value grants: the service's own it names, in ALL_SCOPES's order; every
 * scope when it names none of them (absent, empty, or only unknown ones). Read the same way
 * from an authorization request, a pending request, a grant and an access token's claim.
 */
export function grantedScopes(value: string | undefined): Scope[] {
  const asked = new Set((value ?? '').split(' '));
  const known = ALL_SCOPES.filter((scope) => asked.has(scope));
  return known.length === 0 ? [...ALL_SCOPES] : known;
}

/** The `scope` value of what `value` grants (see grantedScopes). */
export const grantedScope = (value: string | undefined): string => grantedScopes(value).join(' ');
