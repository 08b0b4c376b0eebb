// The checks a request passes before its action runs, each a middleware of the route's stack:
// the body's size (413), the browser's Origin where the route checks
// it (403), its media type (415) and shape (400), and the route's schemas of path parameters
// (404), query (422) and body (422).
import type { Config } from '../../config';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../errors';
import { fieldErrors } from '../../field-errors';
import type { RouteDef } from '../../routes/route';
import { isAllowedOrigin, requestOrigin } from '../headers/origin';
import type { Middleware } from './middleware';

/** 403 for a request from a web page of an origin the route does not take. */
export const originNotAllowed = () =>
  new ForbiddenError(
    'origin-not-allowed',
    'This endpoint takes requests from web pages of its own origin and of the origins its operator allows (MCP_ALLOWED_ORIGINS), not from this one.',
  );

/**
 * 403 before authentication for a request whose Origin is neither the deployment's own nor one
 * of the setting the route names (isAllowedOrigin): MCP's Streamable HTTP transport asks it of
 * servers, against DNS rebinding.
 */
export function allowedOrigin(setting: 'MCP_ALLOWED_ORIGINS', config: Config): Middleware {
  return {
    before: ({ event }) => {
      const own = requestOrigin(config, event);
      if (!isAllowedOrigin(event.headers?.origin, own, config[setting])) {
        throw originNotAllowed();
      }
    },
  };
}

/** 413 before anything is parsed, whether or not the client sent Content-Length. */
export function bodyLimit(config: Config): Middleware {
  return {
    before: ({ event }) => {
      const declared = Number(event.headers?.['content-length'] ?? 0);
      const actual = event.body
        ? event.isBase64Encoded
          ? Buffer.from(event.body, 'base64').length
          : Buffer.byteLength(event.body)
        : 0;
      if (declared > config.MAX_BODY_BYTES || actual > config.MAX_BODY_BYTES) {
        throw new PayloadTooLargeError(config.MAX_BODY_BYTES);
      }
    },
  };
}

/**
 * The media type (415 naming the accepted ones) and a body at all (400), written back in the
 * canonical form middy's parsers recognise (`APPLICATION/JSON;` is JSON too).
 */
export function mediaType(route: RouteDef): Middleware {
  const accepted = route.body?.contentTypes ?? [];
  return {
    before: ({ event }) => {
      const type = (event.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (!type || !accepted.includes(type as (typeof accepted)[number])) {
        throw new UnsupportedMediaTypeError([...accepted]);
      }
      if (!event.body) throw new BadRequestError('The request needs a body.');
      event.headers = { ...event.headers, 'content-type': type };
    },
  };
}

/** What the parsers left must be an object (not an array, a string or null). */
export function objectBody(): Middleware {
  return {
    before: ({ event }) => {
      const body: unknown = event.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new BadRequestError('The body must be a JSON object.');
      }
    },
  };
}

/** The parsed body against the route's schema (422 naming each bad field). */
export function validateBody(route: RouteDef): Middleware {
  return {
    before: ({ event }) => {
      const schema = route.body?.schema;
      if (!schema) return;
      const parsed = schema.safeParse(event.body);
      if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
      // Unknown fields (role, password_hash, __proto__...) are gone after parsing.
      (event as { body: unknown }).body = parsed.data;
    },
  };
}

/** The query string against the route's schema (422 naming each bad parameter). */
export function validateQuery(route: RouteDef): Middleware {
  return {
    before: ({ event, context }) => {
      if (!route.query) return;
      const parsed = route.query.safeParse(event.queryStringParameters ?? {});
      if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
      context.query = parsed.data;
    },
  };
}

/**
 * What a path parameter its schema refuses is answered with: it names nothing, so the route's
 * own 404 (the example its table entry documents, made anew), exactly as for a well-formed id
 * that names nothing of the caller's; a plain 404 naming the value on a route that documents none.
 */
function nothingNamed(route: RouteDef, name: string, value: string | undefined): NotFoundError {
  const documented = route.responses[404]?.example;
  if (documented) return new NotFoundError(documented.message, documented.type);
  return new NotFoundError(`No ${name} named ${JSON.stringify((value ?? '').slice(0, 64))}.`);
}

/** The path parameters against the route's schemas (404: a malformed id names nothing). */
export function validatePath(route: RouteDef): Middleware {
  const params = Object.entries(route.params ?? {});
  return {
    before: ({ event, context }) => {
      const valid: Record<string, unknown> = {};
      for (const [name, schema] of params) {
        const value = event.pathParameters?.[name];
        const parsed = schema.safeParse(value);
        if (!parsed.success) throw nothingNamed(route, name, value);
        valid[name] = parsed.data;
      }
      context.params = valid;
    },
  };
}
