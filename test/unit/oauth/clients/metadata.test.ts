// A client's metadata as accepted (RFC 7591 2 and 3.2.1): the redirect URIs that can be used are
// kept and the others left out (Cursor lists cursor://, https and localhost callbacks in one
// registration, makeplane/plane-mcp-server #159), none usable is invalid_redirect_uri; a method
// left out is "none", client_secret_post (claude.ai, anthropics/claude-ai-mcp #1043) and
// client_secret_basic are taken, and a metadata document's client has no secret (ChatGPT's, which
// prefers private_key_jwt and lists none, is a public client: Altinity/altinity-mcp #118); grant
// types not served are left out (claude.ai's jwt-bearer, anthropics/claude-ai-mcp #487); and what
// makes two registrations the same one.
import { describe, expect, it } from 'vitest';
import {
  type AcceptedMetadata,
  acceptClientMetadata,
  isRefusal,
  type MetadataRefusal,
} from '../../../../lib/oauth/clients/metadata';
import { repeatKey } from '../../../../lib/oauth/clients/registration';

const CURSOR = [
  'cursor://anysphere.cursor-mcp/oauth/callback',
  'https://www.cursor.com/agents/mcp/oauth/callback',
  'http://localhost:8787/callback',
];

const accepted = (metadata: Record<string, unknown>, secretsAllowed = true): AcceptedMetadata => {
  const outcome = acceptClientMetadata(metadata, { secretsAllowed });
  if (isRefusal(outcome)) throw new Error(outcome.detail);
  return outcome;
};
const refused = (metadata: Record<string, unknown>, secretsAllowed = true): MetadataRefusal => {
  const outcome = acceptClientMetadata(metadata, { secretsAllowed });
  if (!isRefusal(outcome)) throw new Error('accepted');
  return outcome;
};

describe('redirect URIs of a client', () => {
  it('keeps all three of Cursor’s', () => {
    expect(accepted({ redirect_uris: CURSOR })).toMatchObject({
      redirectUris: CURSOR,
      refusedRedirectUris: 0,
    });
  });

  it('leaves out those that cannot be used, in the order given, each once', () => {
    const outcome = accepted({
      redirect_uris: [
        'javascript:alert(1)',
        'https://claude.ai/api/mcp/auth_callback',
        ' https://claude.ai/api/mcp/auth_callback',
        'http://evil.example/cb',
        'https://claude.ai/api/mcp/auth_callback',
        'http://127.0.0.1:33418/',
      ],
    });

    expect(outcome.redirectUris).toEqual([
      'https://claude.ai/api/mcp/auth_callback',
      'http://127.0.0.1:33418/',
    ]);
    expect(outcome.refusedRedirectUris).toBe(3);
  });

  it('refuses a list with none that can be used, saying why of the first', () => {
    expect(refused({ redirect_uris: ['javascript:alert(1)'] })).toEqual({
      code: 'invalid_redirect_uri',
      detail: 'redirect_uri "javascript:alert(1)" uses javascript:, which is never a redirect URI',
    });
    expect(refused({ redirect_uris: [' https://claude.ai/cb', 'data:,x'] }).detail).toBe(
      'redirect_uri " https://claude.ai/cb" must not contain whitespace or control characters (and 1 more that cannot be used)',
    );
    expect(refused({ redirect_uris: [42] }).code).toBe('invalid_redirect_uri');
    expect(refused({ redirect_uris: [] }).code).toBe('invalid_redirect_uri');
    expect(refused({}).code).toBe('invalid_redirect_uri');
    expect(refused({ redirect_uris: Array(11).fill(CURSOR[1]) }).code).toBe('invalid_redirect_uri');
  });
});

describe('the token endpoint method of a client', () => {
  it('is "none" when left out, as the MCP hosts that leave it out expect', () => {
    expect(accepted({ redirect_uris: CURSOR }).tokenEndpointAuthMethod).toBe('none');
  });

  it.each(['none', 'client_secret_post', 'client_secret_basic'])(
    'takes %s from a registration',
    (method) => {
      expect(
        accepted({ redirect_uris: CURSOR, token_endpoint_auth_method: method })
          .tokenEndpointAuthMethod,
      ).toBe(method);
    },
  );

  it('refuses a method there is no way to serve, and a secret for a metadata document’s client', () => {
    expect(
      refused({ redirect_uris: CURSOR, token_endpoint_auth_method: 'private_key_jwt' }).code,
    ).toBe('invalid_client_metadata');
    expect(
      refused({ redirect_uris: CURSOR, token_endpoint_auth_method: 'client_secret_post' }, false)
        .detail,
    ).toMatch(/must be "none"/);
    expect(accepted({ redirect_uris: CURSOR }, false).tokenEndpointAuthMethod).toBe('none');
  });

  it('is "none" for a method not served when the client lists none among those it can use', () => {
    const chatgpt = {
      redirect_uris: ['https://chatgpt.com/connector/oauth/abc123'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
    };

    expect(accepted(chatgpt, false).tokenEndpointAuthMethod).toBe('none');
    expect(
      refused({ ...chatgpt, token_endpoint_auth_methods_supported: ['private_key_jwt'] }, false)
        .code,
    ).toBe('invalid_client_metadata');
    expect(refused({ ...chatgpt, token_endpoint_auth_methods_supported: 'none' }, false).code).toBe(
      'invalid_client_metadata',
    );
  });
});

describe('the grant types of a client', () => {
  it('leaves out those not served here, and refuses a client without the code grant', () => {
    const grants = (grant_types: unknown) => ({ redirect_uris: CURSOR, grant_types });

    expect(
      accepted(
        grants([
          'authorization_code',
          'refresh_token',
          'urn:ietf:params:oauth:grant-type:jwt-bearer',
        ]),
        false,
      ).redirectUris,
    ).toEqual(CURSOR);
    expect(accepted(grants(['authorization_code'])).redirectUris).toEqual(CURSOR);
    expect(refused(grants(['implicit'])).detail).toMatch(/must include authorization_code/);
    expect(refused(grants(['refresh_token'])).code).toBe('invalid_client_metadata');
    expect(refused(grants('authorization_code')).code).toBe('invalid_client_metadata');
  });
});

describe('what makes two registrations the same', () => {
  const key = (metadata: Record<string, unknown>, from = '203.0.113.7') =>
    repeatKey(from, accepted(metadata));

  it('is the metadata as accepted, from the same address', () => {
    const base = { client_name: 'Cursor', redirect_uris: CURSOR };
    const first = key(base);

    expect(key({ ...base, redirect_uris: [...CURSOR].reverse() })).toBe(first);
    expect(key({ ...base, token_endpoint_auth_method: 'none' })).toBe(first);
    expect(key({ ...base, client_name: '  Cursor ' })).toBe(first);
    expect(key({ ...base, redirect_uris: [...CURSOR, 'javascript:alert(1)'] })).toBe(first);
    expect(key({ ...base, logo_uri: 'https://example.com/logo.png' })).toBe(first);
    expect(key(base)).toMatch(/^OAUTHREGDEDUP#[A-Za-z0-9_-]{43}#[A-Za-z0-9_-]{43}$/);
  });

  it('differs by address, name, redirect URIs kept and method', () => {
    const base = { client_name: 'Cursor', redirect_uris: CURSOR };
    const keys = [
      key(base),
      key(base, '203.0.113.8'),
      key({ ...base, client_name: 'Cursor 2' }),
      key({ ...base, client_name: undefined }),
      key({ ...base, redirect_uris: CURSOR.slice(1) }),
      key({ ...base, token_endpoint_auth_method: 'client_secret_post' }),
      key({ ...base, token_endpoint_auth_method: 'client_secret_basic' }),
    ];

    expect(new Set(keys).size).toBe(keys.length);
  });
});
