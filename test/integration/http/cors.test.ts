// CORS follows CORS_ORIGINS: listed origins get the headers, others get none.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost({
    CORS_ORIGINS: 'https://app.example.com, https://admin.example.com',
  });
});
afterAll(() => host?.close());

it('allows a configured origin', async () => {
  const response = await host.request('GET', '/health', {
    headers: { origin: 'https://app.example.com' },
  });

  expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
});

it('allows no other origin', async () => {
  const response = await host.request('POST', '/token', {
    json: { username: 'x', password: 'y' },
    headers: { origin: 'https://evil.example.com' },
  });

  expect(response.headers.get('access-control-allow-origin')).toBeNull();
});

it('answers a preflight for a configured origin', async () => {
  const response = await host.request('OPTIONS', '/token', {
    headers: {
      origin: 'https://admin.example.com',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });

  expect(response.status).toBe(204);
  expect(response.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
  expect(response.headers.get('access-control-allow-methods')).toContain('POST');
});

it('lets an MCP client in a browser of a configured origin send its protocol version', async () => {
  const response = await host.request('OPTIONS', '/mcp', {
    headers: {
      origin: 'https://app.example.com',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
    },
  });

  expect(response.status).toBe(204);
  expect(response.headers.get('access-control-allow-headers')?.split(', ')).toEqual(
    expect.arrayContaining(['authorization', 'content-type', 'mcp-protocol-version']),
  );
});
