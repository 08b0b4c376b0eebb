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
