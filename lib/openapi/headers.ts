// Response headers: the components every response may refer to, which a status always carries,
// and a route's own (always there, or sometimes).
import type { HeaderObject, ReferenceObject } from 'openapi3-ts/oas31';
import type { RouteHeader } from '../routes/route';

export const HEADERS = {
  'X-Request-Id': {
    description: "Identifies the request: the same as a problem's request_id and in every log line",
    required: true,
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'WWW-Authenticate': {
    description:
      'The bearer challenge of RFC 6750 (error="invalid_token" for a bad token; at /mcp, error="insufficient_scope" on a 403, with the scope to ask for)',
    required: true,
    schema: { type: 'string' },
  },
  Allow: {
    description: 'The methods the path takes',
    required: true,
    schema: { type: 'string' },
  },
  Location: {
    description:
      'Where to go next: the job to poll (GET /summaries/{id}); for GET /oauth/authorize, back to the app',
    required: true,
    schema: { type: 'string', examples: ['/summaries/c2hvcnQtaWQtZXhhbXBsZQ'] },
  },
  'Content-Location': {
    description: 'The job of this summary in GET /summaries (the history)',
    required: true,
    schema: { type: 'string' },
  },
  'Preference-Applied': {
    description: 'RFC 7240: the Prefer preferences honoured (respond-async, wait=N)',
    required: true,
    schema: { type: 'string' },
  },
} satisfies Record<string, HeaderObject>;

export type HeaderName = keyof typeof HEADERS;

/** The headers a response of this status always carries. */
function headerNames(status: number): HeaderName[] {
  const names: HeaderName[] = ['X-Request-Id'];
  if (status === 401) names.push('WWW-Authenticate');
  if (status === 405) names.push('Allow');
  if (status === 429 || status === 503) names.push('Retry-After');
  return names;
}

/**
 * A response's headers: the status's own, and the route's (a reference to the component when
 * always there, else the header inline, not required). `used` collects the referenced names.
 */
export function responseHeaders(
  status: number,
  own: Partial<Record<RouteHeader, 'always' | 'sometimes'>>,
  used: Set<HeaderName>,
): Record<string, HeaderObject | ReferenceObject> {
  const headers: Record<string, HeaderObject | ReferenceObject> = {};
  const reference = (name: HeaderName) => {
    used.add(name);
    return { $ref: `#/components/headers/${name}` };
  };
  for (const name of headerNames(status)) headers[name] = reference(name);
  for (const [name, when] of Object.entries(own) as [RouteHeader, 'always' | 'sometimes'][]) {
    headers[name] = when === 'always' ? reference(name) : { ...HEADERS[name], required: false };
  }
  return headers;
}
