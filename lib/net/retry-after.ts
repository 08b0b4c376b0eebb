// The Retry-After header (RFC 9110 10.2.3) of an upstream's answer (YouTube, an OpenAI-compatible
// server), as the seconds we pass on to our own clients. Part of the HTTP client code the domain
// is handed (YouTube's fetch, the OpenAI client), not of the server's HTTP layer.

/** Retry-After as seconds (1 s to 1 h), from either delta-seconds or an HTTP date. */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const seconds = /^\d+$/.test(trimmed)
    ? Number(trimmed)
    : Math.ceil((Date.parse(trimmed) - now) / 1000);
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(3600, Math.max(1, seconds));
}
