import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { ConfigError } from '../../lib/errors';

describe('loadConfig', () => {
  it('fills every default from an empty environment', () => {
    const config = loadConfig({});

    expect(config).toMatchObject({
      TABLE_NAME: 'tubesum',
      BCRYPT_COST: 12,
      TOKEN_TTL_SECONDS: 1800,
      MAX_BODY_BYTES: 16384,
      CORS_ORIGINS: [],
      HOST: '127.0.0.1',
      PORT: 3000,
      LOCAL_DATA_DIR: '.data',
      YOUTUBE_BASE_URL: 'https://www.youtube.com',
      SUMMARY_DAILY_QUOTA: 50,
      DEFAULT_MODEL: 'extractive',
      // An agent gets the job id after 8 s; the page waits longer for its summary.
      MCP_WAIT_MS: 8_000,
      SUMMARIZE_WAIT_MS: 20_000,
      OAUTH_ACCESS_TOKEN_TTL_SECONDS: 3_600,
      OAUTH_GRANT_TTL_DAYS: 30,
      OAUTH_REGISTER_MAX_PER_IP: 20,
    });
    expect(config.JWT_SECRET).toBeUndefined();
    expect(config.PUBLIC_URL).toBeUndefined();
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true);
  });

  it.each([
    ['BCRYPT_COST', '9'],
    ['BCRYPT_COST', '16'],
    ['BCRYPT_COST', 'twelve'],
    ['TOKEN_TTL_SECONDS', '-5'],
    ['PORT', '70000'],
    ['YOUTUBE_BASE_URL', 'ftp://example.com'],
    ['YOUTUBE_CLIENTS', 'ANDROID,NOKIA'],
    ['YOUTUBE_CLIENTS', 'IOS@latest'],
    ['YOUTUBE_CLIENTS', 'IOS@1.2@3'],
    ['YOUTUBE_PROXY_RETRIES', '11'],
  ])('fails fast naming %s when it is %s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('parses comma-separated origins and ignores blanks', () => {
    expect(
      loadConfig({ CORS_ORIGINS: ' https://a.example, ,https://b.example ' }).CORS_ORIGINS,
    ).toEqual(['https://a.example', 'https://b.example']);
  });

  it('allows claude.ai and chatgpt.com at /mcp by default, and takes a list of origins', () => {
    expect(loadConfig({}).MCP_ALLOWED_ORIGINS).toEqual([
      'https://claude.ai',
      'https://chatgpt.com',
    ]);
    expect(loadConfig({ MCP_ALLOWED_ORIGINS: '' }).MCP_ALLOWED_ORIGINS).toEqual([]);
    expect(
      loadConfig({ MCP_ALLOWED_ORIGINS: 'https://a.example, http://127.0.0.1:6274' })
        .MCP_ALLOWED_ORIGINS,
    ).toEqual(['https://a.example', 'http://127.0.0.1:6274']);
  });

  it.each([
    ['*'],
    ['null'],
    ['https://a.example/'],
    ['https://a.example/path'],
    ['HTTPS://A.example'],
    ['https://a.example:443'],
    ['ftp://a.example'],
  ])(
    'refuses MCP_ALLOWED_ORIGINS=%s, naming it: an origin is compared as browsers send it',
    (value) => {
      expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: value })).toThrow(/MCP_ALLOWED_ORIGINS/);
    },
  );

  it('treats an empty JWT_SECRET as unset', () => {
    expect(loadConfig({ JWT_SECRET: '  ' }).JWT_SECRET).toBeUndefined();
  });

  it('asks ANDROID, IOS and VISIONOS, in that order, when YOUTUBE_CLIENTS is unset', () => {
    const config = loadConfig({});

    expect(config.YOUTUBE_CLIENTS.map((client) => client.name)).toEqual([
      'ANDROID',
      'IOS',
      'VISIONOS',
    ]);
    expect(config.YOUTUBE_PROXY_RETRIES).toBe(2);
  });

  it('reads YOUTUBE_CLIENTS in its order, with versions overridden by NAME@VERSION', () => {
    const clients = loadConfig({ YOUTUBE_CLIENTS: ' ios@99.1.0 , ANDROID_VR' }).YOUTUBE_CLIENTS;

    expect(clients.map((client) => [client.name, client.version])).toEqual([
      ['IOS', '99.1.0'],
      ['ANDROID_VR', '1.65.10'],
    ]);
    // The user agent carries the version, as the real app's does.
    expect(clients[0]?.userAgent).toContain('com.google.ios.youtube/99.1.0 ');
  });

  it('names the unknown client and the known ones', () => {
    expect(() => loadConfig({ YOUTUBE_CLIENTS: 'NOKIA' })).toThrow(
      /unknown InnerTube client "NOKIA" \(known: ANDROID, IOS, VISIONOS, ANDROID_VR\)\n {2}→ at YOUTUBE_CLIENTS/,
    );
  });
});
