import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARS } from '../../../lib/accounts/auth/password-policy';
import { USERNAME_PATTERN } from '../../../lib/accounts/users/identity';
import { buildOpenApiDocument } from '../../../lib/openapi';
import { routeList, routes } from '../../../lib/routes';
import { SUMMARY_LENGTH } from '../../../lib/summaries/schemas';
import { BLOCK_REASONS } from '../../../lib/youtube/errors';
import { MAX_VIDEO_URL_LENGTH, VIDEO_URL_PATTERN } from '../../../lib/youtube/url';

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON; the assertions give it shape
type Json = any;

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument({ models: ['extractive', 'nova-micro'] });

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

  it('requires a bearer token exactly on the protected routes, and takes API keys but where keys are managed or the account deleted', () => {
    const schemesOf = (route: (typeof routeList)[number]) => {
      const item = paths[route.path] as Record<string, { security?: object[] }>;
      return (item[route.method.toLowerCase()]?.security ?? []).flatMap(Object.keys);
    };

    for (const route of routeList) {
      const expected = !route.auth
        ? []
        : route.mcpTokens
          ? ['mcpOAuth', 'apiKeyAuth']
          : route.loginOnly
            ? ['oauth2', 'bearerAuth']
            : ['oauth2', 'bearerAuth', 'apiKeyAuth'];
      expect(schemesOf(route), `${route.method} ${route.path}`).toEqual(expected);
    }
    expect(routeList.filter((route) => route.loginOnly).map((route) => route.path)).toEqual([
      '/account',
      '/api-keys',
      '/api-keys',
      '/api-keys/{id}',
      '/oauth/requests/{id}',
      '/oauth/requests/{id}',
      '/connected-apps',
      '/connected-apps/{id}',
    ]);
    expect(routeList.filter((route) => route.mcpTokens).map((route) => route.path)).toEqual([
      '/mcp',
    ]);
  });

  it('documents 403 login-token-required exactly on the routes that refuse API keys, and insufficient-scope at /mcp', () => {
    for (const route of routeList) {
      const item = paths[route.path] as Record<string, { responses: Record<string, Json> }>;
      const forbidden = item[route.method.toLowerCase()]?.responses['403'];
      const where = `${route.method} ${route.path}`;
      if (route.loginOnly) {
        expect(route.auth, where).toBe(true);
        expect(forbidden?.content['application/problem+json'].example.type, where).toBe(
          'urn:tubesum:problem:login-token-required',
        );
      } else if (route.mcpTokens) {
        // A tool the OAuth access token's scope does not cover (MCP's step-up challenge).
        expect(forbidden?.content['application/problem+json'].example.type, where).toBe(
          'urn:tubesum:problem:insufficient-scope',
        );
      } else {
        expect(forbidden, where).toBeUndefined();
      }
    }
  });

  it('offers the bearer scheme and the OAuth2 password flow at /token', () => {
    const schemes = document.components?.securitySchemes as unknown as Record<
      string,
      Record<string, unknown>
    >;

    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.apiKeyAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
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

describe('the OpenAPI document says what the service does', () => {
  const models = ['extractive', 'nova-micro'];
  const document = buildOpenApiDocument({ models });
  const schemas = document.components?.schemas as Record<string, Json>;
  const operations = Object.values(document.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, Json>),
  );

  it('names every operation after its route in the table (operationId)', () => {
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(
      Object.keys(routes).sort(),
    );
  });

  it('declares every tag it uses, with a description', () => {
    const declared = new Map(document.tags?.map((tag) => [tag.name, tag.description]));
    for (const operation of operations) {
      for (const tag of operation.tags) expect(declared.get(tag), tag).toMatch(/\w/);
    }
  });

  it('offers exactly the deployment’s models as used_model', () => {
    expect(schemas.SummarizeRequest.properties.used_model.enum).toEqual(models);
    expect(schemas.AskRequest.properties.used_model.enum).toEqual(models);
    expect(
      buildOpenApiDocument({ models: ['extractive'] }).components?.schemas?.SummarizeRequest,
    ).toMatchObject({ properties: { used_model: { enum: ['extractive'] } } });
  });

  it('documents API keys’ lifetime: expires_in_days optional, 1 to 365; expires_at listed and on the new key', () => {
    const lifetime = schemas.ApiKeyRequest.properties.expires_in_days;

    expect(schemas.ApiKeyRequest.required).toEqual(['name']);
    expect(lifetime).toMatchObject({ type: 'integer', minimum: 1, maximum: 365 });
    expect(lifetime.description).toMatch(/never expires/);
    for (const name of ['ApiKey', 'NewApiKey']) {
      expect(schemas[name].required, name).toEqual(
        expect.arrayContaining(['created_at', 'last_used_at', 'expires_at']),
      );
      expect(schemas[name].properties.expires_at.type, name).toEqual(['string', 'null']);
    }
    // The new key is the listed one, plus the key.
    expect(Object.keys(schemas.NewApiKey.properties).sort()).toEqual(
      [...Object.keys(schemas.ApiKey.properties), 'key'].sort(),
    );
  });

  it('documents POST /ask: a question of 1 to 500 characters, citations of this video, its problems', () => {
    const question = schemas.AskRequest.properties.question;
    const ask = (document.paths as Json)['/ask'].post;

    expect(schemas.AskRequest.required.sort()).toEqual(['question', 'video_url']);
    expect(question).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 500,
      pattern: '\\S',
    });
    expect(schemas.AskRequest.properties.video_url).toEqual(
      schemas.SummarizeRequest.properties.video_url,
    );
    expect(schemas.Citation.required.sort()).toEqual(['start_seconds', 'text', 'url']);
    expect(ask.tags).toEqual(['Questions']);
    expect(ask.security).toEqual([{ oauth2: [] }, { bearerAuth: [] }, { apiKeyAuth: [] }]);
    expect(Object.keys(ask.responses).sort()).toEqual(
      [
        '200',
        '400',
        '401',
        '404',
        '405',
        '413',
        '415',
        '422',
        '429',
        '500',
        '502',
        '503',
        '504',
      ].sort(),
    );
    expect(ask.responses['422'].content['application/problem+json'].example.errors).toEqual([
      { field: 'question', message: 'Write a question.' },
    ]);
  });

  it('documents DELETE /account: a login token and the password, 204, and why it refuses', () => {
    const remove = (document.paths as Json)['/account'].delete;
    const example = (status: number) =>
      remove.responses[String(status)].content['application/problem+json'].example;

    expect(remove.tags).toEqual(['Accounts']);
    expect(remove.security).toEqual([{ oauth2: [] }, { bearerAuth: [] }]);
    expect(remove.requestBody.required).toBe(true);
    expect(schemas.DeleteAccountRequest).toMatchObject({
      type: 'object',
      required: ['password'],
      properties: { password: { type: 'string', minLength: 1, maxLength: 1024 } },
    });
    expect(Object.keys(remove.responses).sort()).toEqual(
      ['204', '400', '401', '403', '405', '413', '415', '422', '429', '500', '503'].sort(),
    );
    expect(remove.responses['204']).not.toHaveProperty('content');
    // An API key is refused with the keys' problem type, and a detail about this route.
    expect(example(403)).toMatchObject({
      type: 'urn:tubesum:problem:login-token-required',
      detail: expect.stringContaining('Deleting an account needs an access token'),
    });
    expect(remove.responses['403'].description).toContain('wrong-password');
    expect(example(429).type).toBe('urn:tubesum:problem:too-many-login-attempts');
  });

  it('leaves summary_length optional, stating its default in words (no `default` keyword)', () => {
    const request = schemas.SummarizeRequest;

    expect(request.required).toEqual(['video_url']);
    expect(request.properties.summary_length).not.toHaveProperty('default');
    expect(request.properties.summary_length).toMatchObject({
      type: 'integer',
      minimum: SUMMARY_LENGTH.min,
      maximum: SUMMARY_LENGTH.max,
    });
    expect(request.properties.summary_length.description).toContain(
      `Defaults to ${SUMMARY_LENGTH.default}.`,
    );
  });

  it('documents chapters: include_chapters, each chapter’s fields, where they came from', () => {
    const request = schemas.SummarizeRequest.properties;
    const response = schemas.SummarizeResponse;
    const metadata = schemas.SummaryMetadata;

    expect(request.include_chapters).toMatchObject({ type: 'boolean' });
    expect(request.include_chapters.description).toContain('Defaults to true.');
    expect(response.required).not.toContain('chapters');
    expect(response.properties.chapters).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/Chapter' },
    });
    expect(response.properties.chapters.description).toMatch(/under 5 minutes/);
    expect(schemas.Chapter.required).toEqual([
      'start_seconds',
      'end_seconds',
      'title',
      'summary',
      'url',
    ]);
    expect(schemas.Chapter.properties.summary.description).toContain('one to three sentences');
    expect(schemas.Chapter.properties.url.description).toContain('whole seconds');
    expect(metadata.required).toContain('chapters_source');
    expect(metadata.properties.chapters_source.anyOf).toEqual(
      expect.arrayContaining([
        { type: 'string', enum: ['creator', 'model', 'offline'] },
        { type: 'null' },
      ]),
    );
  });

  it('gives request fields the rules the server applies', () => {
    const register = schemas.RegisterRequest.properties;
    const summarize = schemas.SummarizeRequest.properties;

    expect(register.username.pattern).toBe(USERNAME_PATTERN.source);
    expect(register.email).toMatchObject({ format: 'email', maxLength: 254 });
    expect(register.password).toMatchObject({
      minLength: PASSWORD_MIN_CHARS,
      maxLength: PASSWORD_MAX_BYTES,
    });
    expect(summarize.video_url).toMatchObject({
      maxLength: MAX_VIDEO_URL_LENGTH,
      pattern: VIDEO_URL_PATTERN,
    });
    // A username or an email, and a password: one whole object per alternative.
    expect(schemas.TokenRequest.properties).toBeUndefined();
    expect(schemas.TokenRequest.anyOf.map((body: Json) => body.required)).toEqual([
      ['password', 'username'],
      ['password', 'email'],
    ]);
    for (const body of schemas.TokenRequest.anyOf) {
      expect(Object.keys(body.properties)).toEqual(['username', 'email', 'password', 'grant_type']);
    }
  });

  it('gives every integer a minimum, so no example shows a negative count', () => {
    const unbounded: string[] = [];
    const visit = (schema: Json, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      const types = [schema.type ?? []].flat();
      const bounded = schema.minimum !== undefined || schema.exclusiveMinimum !== undefined;
      if (types.includes('integer') && !bounded) unbounded.push(where);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        visit(property, `${where}.${name}`);
      }
      for (const key of ['items', 'additionalProperties']) visit(schema[key], `${where}.${key}`);
      for (const key of ['anyOf', 'oneOf', 'allOf']) {
        for (const [i, part] of (schema[key] ?? []).entries()) visit(part, `${where}.${key}[${i}]`);
      }
    };
    for (const [name, schema] of Object.entries(schemas)) visit(schema, name);

    expect(unbounded).toEqual([]);
  });

  it('declares the problem extensions the service sends', () => {
    expect(Object.keys(schemas.Problem.properties)).toEqual(
      expect.arrayContaining([
        'errors',
        'allowed_models',
        'available_languages',
        'youtube_reason',
        'block_reason',
        'error',
        'error_description',
      ]),
    );
    expect(schemas.Problem.properties.block_reason.enum).toEqual([...BLOCK_REASONS]);
  });

  it('documents transcriptions: the transcript’s source and language, the transcribing stage, the problems and their extensions', () => {
    for (const name of ['SummaryMetadata', 'AskMetadata']) {
      expect(schemas[name].properties.transcript_source, name).toMatchObject({
        type: 'string',
        enum: ['captions', 'transcription'],
      });
      expect(schemas[name].properties.transcript_language, name).toMatchObject({ type: 'string' });
      expect(schemas[name].required, name).toEqual(
        expect.arrayContaining(['transcript_source', 'transcript_language']),
      );
    }
    expect(schemas.JobProgress.properties.stage.enum).toContain('transcribing');
    expect(schemas.JobProgress.properties.stage.description).toMatch(/transcribing \(/);
    const summarize = (document.paths as Json)['/summarize'].post.responses;
    const described = (status: number) => summarize[String(status)].description;
    for (const type of [
      'video-too-long-to-transcribe',
      'transcription-too-large',
      'transcription-rejected',
    ]) {
      expect(described(422)).toContain(type);
    }
    expect(described(429)).toContain('transcription-budget-exceeded');
    expect(described(502)).toContain('transcription-error');
    expect(described(504)).toContain('transcription-timeout');
    for (const extension of ['max_minutes', 'max_mb', 'backend_reason']) {
      expect(schemas.Problem.properties[extension], extension).toMatchObject({
        description: expect.stringMatching(/transcri/),
      });
    }
  });

  it('documents the headers each status carries', () => {
    for (const operation of operations) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const headers = Object.keys((response as Json).headers);
        const where = `${operation.operationId} ${status}`;
        expect(headers, where).toContain('X-Request-Id');
        if (status === '401') expect(headers, where).toContain('WWW-Authenticate');
        if (status === '405') expect(headers, where).toContain('Allow');
        if (status === '429' || status === '503') expect(headers, where).toContain('Retry-After');
      }
    }
    for (const name of ['X-Request-Id', 'WWW-Authenticate', 'Allow', 'Retry-After']) {
      expect(document.components?.headers?.[name], name).toMatchObject({ required: true });
    }
  });

  it('gives each problem status its own example, with that status and the route’s own type', () => {
    for (const operation of operations) {
      const seen = new Set<string>();
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (Number(status) < 400) continue;
        const where = `${operation.operationId} ${status}`;
        const oauth = (response as Json).content['application/json']?.example;
        if (oauth !== undefined) {
          // An OAuth endpoint's error: RFC 6749's JSON, its code the example's own.
          expect(oauth, where).toMatchObject({
            error: expect.stringMatching(/^[a-z_]+$/),
            error_description: expect.any(String),
            request_id: expect.any(String),
          });
          seen.add(`${status} ${oauth.error}`);
          continue;
        }
        const example = (response as Json).content['application/problem+json'].example;
        expect(example, where).toMatchObject({
          status: Number(status),
          request_id: expect.any(String),
        });
        expect(example.type, where).toMatch(/^urn:tubesum:problem:[a-z-]+$/);
        seen.add(`${example.status} ${example.type}`);
      }
      const problems = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
      expect(seen.size, operation.operationId).toBe(problems.length);
    }
    const post = (path: string) => (document.paths as Json)[path].post.responses;
    expect(post('/token')['401'].content['application/problem+json'].example).toMatchObject({
      type: 'urn:tubesum:problem:invalid-credentials',
      error: 'invalid_grant',
    });
    expect(post('/summarize')['429'].content['application/problem+json'].example.type).toBe(
      'urn:tubesum:problem:quota-exceeded',
    );
    const getSummary = (document.paths as Json)['/summaries/{id}'];
    expect(getSummary.get.responses['405'].content['application/problem+json'].example.detail).toBe(
      'This path accepts GET, HEAD, DELETE.',
    );
  });

  it('documents POST /mcp: a JSON-RPC message in, its answer out, a notification without one', () => {
    const mcp = (document.paths as Json)['/mcp'].post;

    expect(mcp.tags).toEqual(['Agents']);
    expect(mcp.security.flatMap(Object.keys)).toContain('apiKeyAuth');
    expect(mcp.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/McpMessage',
    });
    expect(mcp.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/McpResponse',
    });
    expect(mcp.responses['202']).not.toHaveProperty('content');
    expect(mcp.responses['406'].content['application/problem+json'].example.type).toBe(
      'urn:tubesum:problem:not-acceptable',
    );
    expect(mcp.responses['405'].content['application/problem+json'].example.detail).toBe(
      'This path accepts POST.',
    );
    expect(mcp.parameters.map((parameter: Json) => parameter.name)).toEqual([
      'MCP-Protocol-Version',
    ]);
    expect(schemas.McpResponse.required).toEqual(['jsonrpc', 'id']);
  });

  it('documents /openapi.json as a JSON object, the docs page as HTML', () => {
    const paths = document.paths as Json;
    const openapi = paths['/openapi.json'].get.responses['200'];
    const docs = paths['/docs'].get.responses['200'];

    expect(openapi.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/OpenApiDocument',
    });
    expect(schemas.OpenApiDocument).toMatchObject({
      type: 'object',
      required: ['openapi', 'info', 'paths'],
    });
    expect(Object.keys(docs.content)).toEqual(['text/html']);
  });
});
