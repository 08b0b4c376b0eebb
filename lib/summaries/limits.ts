// Bounds of a summary request that the page for people (web/) shares with the API's schemas,
// in a module without zod so the page's bundle stays small.

/** summary_length: the fewest and most words a summary may be asked to have, and the default. */
export const SUMMARY_LENGTH = { min: 25, max: 2_000, default: 200 } as const;
