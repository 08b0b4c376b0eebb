// Accounts' variables: the signing key and the operator's secrets, tokens, OAuth for /mcp, and
// the limits on logins, registrations and bcrypt runs.
import { int, optionalString, originList, publicOrigin, text, url } from './values';

/** The web apps whose servers call /mcp naming their own origin (claude.ai, ChatGPT). */
export const DEFAULT_MCP_ALLOWED_ORIGINS = 'https://claude.ai,https://chatgpt.com';

export const accountSettings = {
  /** JWT signing secret (local use). Deployed stacks use JWT_SECRET_ARN instead. */
  JWT_SECRET: optionalString,
  /** Secrets Manager secret holding the signing key (set by the CDK stack). */
  JWT_SECRET_ARN: optionalString,
  /**
   * Secrets Manager secret of the operator's credentials, JSON {"youtubeProxyUrl",
   * "youtubeApiKey", "openaiApiKey", "transcriptionApiKey"} (the CDK stack fills it from its
   * parameters); its values fill YOUTUBE_PROXY_URL, YOUTUBE_API_KEY, OPENAI_API_KEY and
   * TRANSCRIPTION_API_KEY where those are unset.
   */
  CREDENTIALS_SECRET_ARN: optionalString,
  /** Secrets Manager endpoint override (tests point it at a local stub). */
  AWS_ENDPOINT_URL_SECRETS_MANAGER: url(),
  JWT_ISSUER: text('tubesum'),
  JWT_AUDIENCE: text('tubesum-api'),
  TOKEN_TTL_SECONDS: int(60, 86_400, 1_800),

  /**
   * The service's public origin (https://tubesum.example.com): the OAuth issuer, and the base of
   * the /mcp resource its access tokens are for. Unset: the origin each request came to.
   */
  PUBLIC_URL: publicOrigin,
  /**
   * Origins besides the service's own whose requests /mcp takes (an `Origin` header of any other
   * is refused with 403, against DNS rebinding); a request without Origin is always taken.
   */
  MCP_ALLOWED_ORIGINS: originList(DEFAULT_MCP_ALLOWED_ORIGINS),
  /** Lifetime of an OAuth access token for /mcp (at most an hour). */
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: int(60, 3_600, 3_600),
  /** An app connected with OAuth that does not refresh its tokens for this many days is disconnected. */
  OAUTH_GRANT_TTL_DAYS: int(1, 365, 30),
  /** OAuth client registrations (POST /oauth/register) per source address per hour; 0: no limit. */
  OAUTH_REGISTER_MAX_PER_IP: int(0, 100_000, 20),

  BCRYPT_COST: int(10, 15, 12),
  /** Failed logins per account from one address per window, before 429. */
  LOGIN_MAX_FAILURES: int(1, 100, 5),
  /** Failed logins per account from all addresses per window, before 429. */
  LOGIN_ACCOUNT_MAX_FAILURES: int(1, 100_000, 100),
  LOGIN_WINDOW_SECONDS: int(10, 86_400, 900),
  /** Successful registrations per source address per hour; 0 means no limit. */
  REGISTER_MAX_PER_IP: int(0, 100_000, 20),
  /**
   * bcrypt runs (password checks at /token, hashes at /register) per source address per
   * BCRYPT_WINDOW_SECONDS, taken before each runs; 0 means no limit.
   */
  BCRYPT_MAX_PER_IP: int(0, 100_000, 20),
  BCRYPT_WINDOW_SECONDS: int(10, 86_400, 60),
};
