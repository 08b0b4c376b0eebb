// The deployment's own origin and the one rule for a browser's Origin (lib/http/headers/origin.ts):
// /mcp (with MCP_ALLOWED_ORIGINS) and the consent page's answer (with no other origin) follow it.
// MCP's Streamable HTTP transport, "Security Warning": validate Origin against DNS rebinding.
import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, requestOrigin } from '../../../../lib/http/headers/origin';

const OWN = 'https://tubesum.example.com';
const ALLOWED = ['https://claude.ai', 'https://chatgpt.com'];

describe('isAllowedOrigin', () => {
  it.each([
    ['no Origin', undefined],
    ['the own origin', OWN],
    ['an allowed one', 'https://chatgpt.com'],
  ])('takes %s', (_, origin) => {
    expect(isAllowedOrigin(origin, OWN, ALLOWED)).toBe(true);
  });

  it.each([
    ['another site', 'https://evil.example.com'],
    ['null', 'null'],
    ['an empty value', ''],
    ['the own host over http', 'http://tubesum.example.com'],
    ['the own origin with a trailing slash', `${OWN}/`],
    ['an allowed one in capitals', 'https://Claude.ai'],
  ])('refuses %s', (_, origin) => {
    expect(isAllowedOrigin(origin, OWN, ALLOWED)).toBe(false);
  });

  it('takes no other origin than the own one when none is allowed', () => {
    expect(isAllowedOrigin('https://claude.ai', OWN, [])).toBe(false);
    expect(isAllowedOrigin(OWN, OWN, [])).toBe(true);
  });
});

describe('requestOrigin', () => {
  const event = (host: string) => ({ requestContext: { domainName: host }, headers: {} }) as never;

  it('gives an origin in the form a browser sends it (and the metadata names the issuer)', () => {
    const unset = { PUBLIC_URL: undefined };

    expect(requestOrigin(unset, event('Tubesum.Example.com:443'))).toBe(OWN);
    expect(requestOrigin(unset, event('127.0.0.1:80'))).toBe('http://127.0.0.1');
    expect(requestOrigin(unset, event('localhost:3000'))).toBe('http://localhost:3000');
  });

  it('makes an attacker’s name https, so that a rebinding page at http is never the own origin', () => {
    const own = requestOrigin({ PUBLIC_URL: undefined }, event('evil.example.com:3000'));

    expect(own).toBe('https://evil.example.com:3000');
    expect(isAllowedOrigin('http://evil.example.com:3000', own, [])).toBe(false);
  });
});
