// SECURITY.md, "Error shape" and "Every route", over HTTP through the real local host.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../../lib/routes';
import type { RouteDef } from '../../../lib/routes/route';
import { newUser, startTestHost, type TestHost } from '../../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost({ MAX_BODY_BYTES: '16384' });
});
afterAll(() => host?.close());

/** A route's path with a file that exists in place of `{file}`. */
function samplePath(route: RouteDef): string {
  const file = route.path.startsWith('/app/') ? 'app.js' : 'init.js';
  return route.path.replace('{file}', file);
}

/** Sends a chunked body (no Content-Length) with node:http, which fetch cannot do portably. */
function sendChunked(path: string, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(host.url + path);
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', (error) => {
      // The server may close the socket once it has answered 413.
      if (
        (error as NodeJS.ErrnoException).code === 'EPIPE' ||
        (error as NodeJS.ErrnoException).code === 'ECONNRESET'
      )
        return;
      reject(error);
    });
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

/**
 * Sends `request` as it is over a new connection and reads the answer until the server closes
 * it: fetch clients refuse or repair what a server must refuse.
 */
function sendRaw(request: string): Promise<{ head: string; headers: Headers; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(host.url);
    const socket = connect(Number(url.port), url.hostname, () => socket.write(request));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const headers = new Headers(
        head
          .split('\r\n')
          .slice(1)
          .map((line) => line.split(/:\s*/, 2) as [string, string]),
      );
      resolve({ head, headers, body });
    });
    socket.on('error', reject);
  });
}

const expectProblem = (
  response: { status: number; headers: Headers; body: Record<string, unknown> },
  status: number,
) => {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({
    type: expect.stringMatching(/^urn:tubesum:problem:/),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    request_id: response.headers.get('x-request-id'),
  });
};

describe('GET /health', () => {
  it('answers {"status":"healthy"} without a token', async () => {
    const response = await host.request('GET', '/health');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'healthy' });
  });
});

describe('the documentation routes', () => {
  it('serve the OpenAPI document as JSON', async () => {
    const response = await host.request('GET', '/openapi.json');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body.openapi).toBe('3.1.0');
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining(['/summarize', '/ask']),
    );
  });

  it('serve Swagger UI from this host, gzip-compressed when asked, with a strict CSP', async () => {
    const page = await host.request('GET', '/docs');
    const bundle = await fetch(`${host.url}/docs/swagger-ui-bundle.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });

    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Its own styles are in the served stylesheet, so no inline style or script is allowed.
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    // Nothing from elsewhere; the inline icon's SVG namespace names, it is never fetched.
    const svgNamespace = 'http://www.w3.org/2000/svg';
    expect(page.text.replaceAll(svgNamespace, '')).not.toMatch(/https?:\/\//);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-encoding')).toBe('gzip');
    expect((await bundle.text()).length).toBeGreaterThan(1_000_000); // fetch decompresses
  });

  it('refuse any other file name', async () => {
    const response = await host.request('GET', '/docs/..%2Fpackage.json');

    expect(response.status).toBe(404);
  });
});

describe('the page for people', () => {
  it('serves / with a CSP that allows no inline code and nothing from elsewhere', async () => {
    const page = await host.request('GET', '/');

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    // No inline script: the only script is the page's own file.
    expect(page.text.match(/<script[^>]*>/g)).toEqual([
      expect.stringMatching(/^<script type="module" src="app\/app\.js\?v=[0-9a-f]{12}">$/),
    ]);
    expect(page.text).not.toMatch(/\sstyle=|<style/);
    const svgNamespace = 'http://www.w3.org/2000/svg';
    expect(page.text.replaceAll(svgNamespace, '')).not.toMatch(/https?:\/\//);
  });

  it("names this deployment's models and its default in the page", async () => {
    const page = await host.request('GET', '/');

    const models = /<meta name="tubesum-models" content="([^"]*)">/.exec(page.text)?.[1] ?? '';
    expect(JSON.parse(models.replaceAll('&quot;', '"'))).toEqual(
      expect.arrayContaining(['extractive']),
    );
    expect(page.text).toContain('<meta name="tubesum-default-model" content="extractive">');
  });

  it('serves its script and style, gzip-compressed when asked, cached by their content', async () => {
    const page = await host.request('GET', '/');
    for (const [file, type] of [
      ['app.js', /^text\/javascript/],
      ['app.css', /^text\/css/],
    ] as const) {
      const version = new RegExp(`app/${file.replace('.', '\\.')}\\?v=([0-9a-f]+)`).exec(
        page.text,
      )?.[1];
      const response = await fetch(`${host.url}/app/${file}?v=${version}`, {
        headers: { 'accept-encoding': 'gzip' },
      });

      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toMatch(type);
      expect(response.headers.get('content-encoding'), file).toBe('gzip');
      expect(response.headers.get('cache-control'), file).toContain('immutable');
      expect((await response.text()).length, file).toBeGreaterThan(1_000);
    }
  });

  it('refuses any other file name', async () => {
    for (const path of ['/app/..%2Fpackage.json', '/app/app.js.map', '/app/index.html']) {
      expectProblem(await host.request('GET', path), 404);
    }
  });
});

describe('every route', () => {
  it('answers 413 for a body over the limit with Content-Length, before parsing', async () => {
    const response = await host.request('POST', '/register', {
      body: `{"username": "${'a'.repeat(20_000)}"`, // also malformed: the size is checked first
      headers: { 'content-type': 'application/json' },
    });

    expectProblem(response, 413);
  });

  it('answers 413 at once for a Content-Length over the limit, without waiting for the body', async () => {
    // Headers only: a body of 1 GB is announced and never sent. The answer must not wait for it.
    const head = await new Promise<string>((resolve, reject) => {
      const url = new URL(host.url);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          'POST /register HTTP/1.1\r\nHost: local\r\nContent-Type: application/json\r\n' +
            'Content-Length: 1000000000\r\n\r\n',
        );
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk;
        if (received.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
    });

    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head.toLowerCase()).toContain('content-type: application/problem+json');
  });

  it('answers a malformed percent-escape in a path with a 404 problem, never a 500', async () => {
    for (const path of ['/docs/%ff', '/docs/%E0%A4%A', '/%zz']) {
      const response = await host.request('GET', path);

      expectProblem(response, 404);
    }
  });

  it('answers 413 for a chunked body over the limit without Content-Length', async () => {
    const response = await sendChunked(
      '/register',
      Array.from({ length: 40 }, () => 'x'.repeat(1_024)),
    );

    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).type).toBe('urn:tubesum:problem:payload-too-large');
  });

  it.each([
    ['a wrong Content-Type', { 'content-type': 'text/plain' }, '{"a":1}', 415],
    ['no Content-Type', {}, '{"a":1}', 415],
    ['malformed JSON', { 'content-type': 'application/json' }, '{"username": ', 400],
    ['a top-level array', { 'content-type': 'application/json' }, '[1,2,3]', 400],
    ['a top-level string', { 'content-type': 'application/json' }, '"hello"', 400],
    ['an empty body', { 'content-type': 'application/json' }, '', 400],
  ])('answers %s with a problem, never a 500', async (_case, headers, body, status) => {
    const response = await host.request('POST', '/register', { body, headers });

    expectProblem(response, status);
  });

  it('lists every invalid field in a 422', async () => {
    const response = await host.request('POST', '/register', {
      json: { username: 'x', email: 'nope' },
    });

    expectProblem(response, 422);
    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'email',
      'password',
      'username',
    ]);
    expect(
      response.body.errors.find((e: { field: string }) => e.field === 'password').message,
    ).toBe('Fill in this field.');
  });

  it('answers 404 problem+json for an unknown path', async () => {
    const response = await host.request('GET', '/admin');

    expectProblem(response, 404);
  });

  it('answers 405 with Allow for a wrong method on every route of the table', async () => {
    for (const route of routeList) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      // A method no route of the table takes on any path.
      const wrong = 'PUT';

      const response = await host.request(wrong, path);

      expectProblem(response, 405);
      expect(response.headers.get('allow')).toContain(route.method);
    }
  });

  it('lists HEAD in Allow wherever GET is, and only there', async () => {
    for (const route of routeList) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      const methods = routeList
        .filter((other) => other.path === route.path)
        .flatMap((other) => (other.method === 'GET' ? ['GET', 'HEAD'] : [other.method]));

      const response = await host.request('PUT', path);

      expect(response.headers.get('allow')?.split(', ').sort(), path).toEqual(methods.sort());
    }
  });

  it("answers HEAD on every GET route with the GET's status and headers, without a body", async () => {
    const { token } = await host.registerAndLogin();
    const ignored = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);
    const headersOf = (response: Response) =>
      Object.fromEntries([...response.headers].filter(([name]) => !ignored.has(name)));
    const gets = routeList.filter((route) => route.method === 'GET');

    expect(gets.length).toBeGreaterThan(3);
    for (const route of gets) {
      const path = samplePath(route).replace('{id}', 'x'.repeat(26));
      const init = { headers: { authorization: `Bearer ${token}` } };

      const get = await fetch(host.url + path, init);
      const getBody = await get.arrayBuffer();
      const head = await fetch(host.url + path, { ...init, method: 'HEAD' });

      expect(head.status, `HEAD ${path}`).toBe(get.status);
      expect(head.status, `HEAD ${path}`).not.toBe(405);
      expect(headersOf(head), `HEAD ${path}`).toEqual(headersOf(get));
      // fetch decompresses a gzip body: its length is then not the Content-Length (which the
      // headers above already compare).
      if (get.headers.get('content-encoding') === null) {
        expect(Number(head.headers.get('content-length')), `HEAD ${path}`).toBe(getBody.byteLength);
      }
      expect((await head.arrayBuffer()).byteLength, `HEAD ${path}`).toBe(0);
    }
  });

  it('answers HEAD on a path without GET with 405 and its Allow', async () => {
    const response = await fetch(`${host.url}/register`, { method: 'HEAD' });

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers request headers over the limit with a 431 problem carrying X-Request-Id', async () => {
    const { head, headers, body } = await sendRaw(
      `GET /health HTTP/1.1\r\nHost: local\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );

    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expectProblem({ status: 431, headers, body: JSON.parse(body) }, 431);
    expect(Number(headers.get('content-length'))).toBe(Buffer.byteLength(body));
  });

  it('answers a request that is not HTTP with a 400 problem carrying X-Request-Id', async () => {
    const { head, headers, body } = await sendRaw('NOT HTTP AT ALL\r\n\r\n');

    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expectProblem({ status: 400, headers, body: JSON.parse(body) }, 400);
  });

  it('serves every route of the table (nothing in the table is missing a handler)', async () => {
    for (const route of routeList) {
      const path = samplePath(route);

      const response = await host.request(
        route.method,
        path,
        route.method === 'POST' ? { json: {} } : {},
      );

      expect(response.status, `${route.method} ${route.path}`).toBeLessThan(500);
      expect(response.status, `${route.method} ${route.path}`).not.toBe(404);
    }
  });

  it('sends nosniff and no-store on API answers', async () => {
    const response = await host.request('POST', '/register', { json: newUser() });

    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('sends no CORS headers when no origin is configured', async () => {
    const response = await host.request('GET', '/health', {
      headers: { origin: 'https://evil.example' },
    });

    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
