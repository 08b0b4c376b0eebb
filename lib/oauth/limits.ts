// The OAuth area's limits, without dependencies (the route table's documents read them).

/** The most apps one person keeps connected (each grant is an entry of their list). */
export const MAX_CONNECTED_APPS = 50;
