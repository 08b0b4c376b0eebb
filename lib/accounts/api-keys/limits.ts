// The API keys area's limits, without zod: the store and the errors read them, and every
// function that accepts API keys bundles those two (bearer authentication, the login-only check
// of the shared HTTP layer), so they must not bring the area's schemas along.

/**
 * The most keys one user may hold at once: enough for a few machines and scripts, few enough
 * that a stolen login cannot mint keys without bound (each one outlives a password change).
 */
export const API_KEYS_PER_USER = 10;
/** A key's name: a label for its owner, 1-64 characters once trimmed. */
export const API_KEY_NAME_MAX_CHARS = 64;
/** The longest lifetime a key may be given (`expires_in_days`); without one it never expires. */
export const API_KEY_MAX_LIFETIME_DAYS = 365;
/**
 * How long an expired key stays listed (and counts toward API_KEYS_PER_USER) before it is
 * removed: long enough for its owner to see what stopped working, and why.
 */
export const API_KEY_EXPIRED_RETENTION_DAYS = 30;

/** A day in milliseconds: lifetimes are counted in days of 24 hours (no calendar). */
export const DAY_MS = 86_400_000;
