// The OAuth area's limits, without dependencies (the route table's documents read them).

/** The most apps one person keeps connected (each grant is an entry of their list). */
export const MAX_CONNECTED_APPS = 50;

/**
 * How long a registration counts as made: the same metadata registered again from the same
 * address within it is a repeat, which costs nothing (OAUTH_REGISTER_MAX_PER_IP counts distinct
 * clients, per hour as well).
 */
export const REGISTRATION_REPEAT_WINDOW_MS = 60 * 60_000;

/**
 * The repeats of one confidential registration (per address and metadata) that are free within
 * the window. Each makes a client, a stored item, so they are bounded too; past them, a repeat
 * counts against OAUTH_REGISTER_MAX_PER_IP like a new registration. A public client's repeat makes
 * nothing (it gets the same client back) and is never counted.
 */
export const MAX_FREE_REPEATS_PER_HOUR = 100;
