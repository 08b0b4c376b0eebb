import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../lib/openapi';
import { routeList } from '../../../lib/routes';

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('lists exactly the routes of the route table', () => {
    const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );

    expect(documented.sort()).toEqual(
      routeList.map((route) => `${route.method} ${route.path}`).sort(),
    );
  });

  const paths = document.paths as Record<string, Record<string, unknown>>;

  it('requires a bearer token exactly on the protected routes', () => {
    for (const route of routeList) {
      const item = paths[route.path] as Record<string, { security?: unknown[] }>;
      const operation = item[route.method.toLowerCase()];
      expect(operation?.security?.length ?? 0, route.path).toBe(route.auth ? 2 : 0);
    }
  });

  it('offers the bearer scheme and the OAuth2 password flow at /token', () => {
    const schemes = document.components?.securitySchemes as unknown as Record<
      string,
      Record<string, unknown>
    >;

    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: { password: { tokenUrl: 'token' } },
    });
  });

  it('documents /token as JSON and as a form', () => {
    const token = paths['/token'] as {
      post: { requestBody: { content: object } };
    };
    const content = token.post.requestBody.content;

    expect(Object.keys(content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
  });
});
