// Response helpers with no dependencies, so the smallest handlers (/health) stay tiny. The
// headers every response carries are added once, as it leaves, not here.
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type Reply = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
};

/** Headers every API response carries (added by the exit): no sniffing, nothing cached by default. */
export const baseHeaders: Readonly<Record<string, string>> = Object.freeze({
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
});

/** A JSON response. */
export function json(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): Reply {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** A text response of any content type (HTML, JavaScript, CSS). */
export function text(
  statusCode: number,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
): Reply {
  return {
    statusCode,
    headers: { 'Content-Type': contentType, ...headers },
    body,
  };
}

/** A response without a body (204 No Content). */
export function noContent(headers: Record<string, string> = {}): Reply {
  return { statusCode: 204, headers: { ...headers } };
}
