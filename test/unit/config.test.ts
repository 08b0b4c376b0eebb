import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../lib/config';

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
    });
    expect(config.JWT_SECRET).toBeUndefined();
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
  ])('fails fast naming %s when it is %s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('parses comma-separated origins and ignores blanks', () => {
    expect(
      loadConfig({ CORS_ORIGINS: ' https://a.example, ,https://b.example ' }).CORS_ORIGINS,
    ).toEqual(['https://a.example', 'https://b.example']);
  });

  it('treats an empty JWT_SECRET as unset', () => {
    expect(loadConfig({ JWT_SECRET: '  ' }).JWT_SECRET).toBeUndefined();
  });
});
