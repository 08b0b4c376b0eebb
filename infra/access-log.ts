// One access line per request, in the fields API Gateway's access log has for the deployed
// stack (the service API construct gives it this format). The local host writes the same fields itself, so
// a line reads alike wherever the API runs. No headers, query strings or bodies: tokens and
// passwords never reach it.

/** Each field and the API Gateway context variable it holds. */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
} as const;

/** An access line; API Gateway writes "-" for what does not apply, and so does the local host. */
export type AccessLogEntry = Record<keyof typeof ACCESS_LOG_FIELDS, string | number>;
